// SPDX-License-Identifier: GPL-2.0
/*
 * For seqhold.sh: a module with one legacy item, run once at load and idle
 * since.  Its unload makes wqcompat.ko look at every legacy record, under
 * its lock, to find this module's (and then count the look: the test
 * build's delay point going_marked).
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static void bystander_fn(void *data)
{
}

static DECLARE_WORK(bystander_item, bystander_fn, NULL);

static int __init bystander_init(void)
{
	schedule_work(&bystander_item);
	flush_scheduled_work();
	return 0;
}

static void __exit bystander_exit(void)
{
}

module_init(bystander_init);
module_exit(bystander_exit);

MODULE_DESCRIPTION("wqport test: a module that unloads with its work idle");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose work item leaks an allocation.  kmemleak names the task
 * that allocated it, a workqueue worker, which outlives the runs of a boot:
 * `wqport test --runs` cannot tell the leak's run by its pid, so it runs
 * each run of that boot again alone, and the leak is this module's.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

static void *harness_leak_work_ptr;

static void harness_leak_work_fn(struct work_struct *work)
{
	WRITE_ONCE(harness_leak_work_ptr, kmalloc(128, GFP_KERNEL));
}

static DECLARE_WORK(harness_leak_work, harness_leak_work_fn);

static int __init harness_leak_work_init(void)
{
	schedule_work(&harness_leak_work);
	flush_work(&harness_leak_work);
	return READ_ONCE(harness_leak_work_ptr) ? 0 : -ENOMEM;
}
module_init(harness_leak_work_init);

/* Forgets the pointer without freeing it: the leak. */
static void __exit harness_leak_work_exit(void)
{
	WRITE_ONCE(harness_leak_work_ptr, NULL);
}
module_exit(harness_leak_work_exit);

MODULE_DESCRIPTION("wqport harness: a module whose work item leaks memory");
MODULE_LICENSE("GPL");

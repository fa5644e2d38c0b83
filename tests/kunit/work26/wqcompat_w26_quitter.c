// SPDX-License-Identifier: GPL-2.0
/*
 * For late-queue.sh: owns a static legacy item, bound at load (run once),
 * and exports it; wqcompat_w26_latecomer queues it while this module
 * unloads.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

static void quitter_fn(void *data)
{
}

static DECLARE_WORK(quitter_item, quitter_fn, NULL);

/**
 * quitter_work - this module's item, for another module to queue
 *
 * Context: any.  Return: the item.
 */
struct work_struct *quitter_work(void)
{
	return &quitter_item;
}
EXPORT_SYMBOL_GPL(quitter_work);

static int __init quitter_init(void)
{
	schedule_work(&quitter_item);
	flush_scheduled_work();
	return 0;
}

static void __exit quitter_exit(void)
{
}

module_init(quitter_init);
module_exit(quitter_exit);

MODULE_DESCRIPTION("wqport test: a legacy item queued while its module unloads");
MODULE_LICENSE("GPL");

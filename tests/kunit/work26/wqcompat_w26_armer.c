// SPDX-License-Identifier: GPL-2.0
/*
 * For plain-cancel.sh: arms wqcompat_w26_holder's modern item with the
 * 2.6 queue_delayed_work(), for much later, from this module (the timer's
 * record is this module's), and leaves it armed.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

static int __init armer_init(void)
{
	return queue_delayed_work(system_wq, holder_work(), 1000 * HZ) ?
	       0 : -EBUSY;
}

static void __exit armer_exit(void)
{
}

module_init(armer_init);
module_exit(armer_exit);

MODULE_DESCRIPTION("wqport test: arms another module's modern item the 2.6 way");
MODULE_LICENSE("GPL");

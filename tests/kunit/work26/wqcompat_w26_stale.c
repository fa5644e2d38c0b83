// SPDX-License-Identifier: GPL-2.0
/*
 * A half-converted 2.6 driver for stale.sh.  In its init, behind a queue
 * that wqcompat_w26_blocker holds busy:
 *  - a legacy item is queued and then cancelled with the kernel's own
 *    cancel_work_sync() (a call a half-converted driver makes), and its
 *    memory freed: at unload the shim must neither touch that memory nor
 *    report the item;
 *  - a modern item is given to the 2.6 queue_delayed_work() with one
 *    jiffy, which fires while the queue is blocked: at unload the shim must
 *    take that run off, since it is this module's code.
 * Its exit stops nothing and leaves the queue (a driver bug: destroying it
 * would wait for the blocker).
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

struct stale_dev {
	struct work_struct work;
	int runs;
};

static struct workqueue_struct *stale_wq;
static struct work_struct stale_modern;

static void stale_fn(void *data)
{
	struct stale_dev *dev = data;

	dev->runs++;
}

static void stale_modern_fn(struct work_struct *work)
{
	pr_info("wqcompat_w26_stale: modern handler ran\n");
}

static int __init stale_init(void)
{
	struct stale_dev *dev;

	stale_wq = create_singlethread_workqueue("stale");
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!stale_wq || !dev)
		return -ENOMEM;
	w26b_block(stale_wq);

	INIT_WORK(&dev->work, stale_fn, dev);
	if (!queue_work(stale_wq, &dev->work) ||
	    !cancel_work_sync(&dev->work) || dev->runs) {
		/* insmod fails: stale.sh's check of it fails */
		pr_err("wqcompat_w26_stale: the queued item was not cancelled\n");
		kfree(dev);
		return -EIO;
	}
	kfree(dev);

	INIT_WORK(&stale_modern, stale_modern_fn);
	queue_delayed_work(stale_wq, &stale_modern, 1);
	/*
	 * The case is what follows the timer's firing: give it a hundred
	 * ticks to fire.  stale.sh checks that it did (the unload's report
	 * says the work was queued, not armed), so a timer that did not fire
	 * fails the run rather than testing another case.
	 */
	schedule_timeout_uninterruptible(HZ / 10);
	return 0;
}

static void __exit stale_exit(void)
{
}

module_init(stale_init);
module_exit(stale_exit);

MODULE_DESCRIPTION("wqport test: unload after a kernel cancel and a fired 2.6 timer");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * trcmp's port to today's workqueue API, written by hand
 * (../trcmp-legacy says what each item does).  tests/trace/broken-ports
 * breaks it one line at a time: the lines it changes carry a comment
 * that names the break.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#define TRCMP_POLLS	5	/* no-rearm: 1 */

static struct workqueue_struct *trcmp_wq;
static struct delayed_work trcmp_poll, trcmp_late, trcmp_watch;
static struct work_struct trcmp_first, trcmp_second, trcmp_once;
static int trcmp_polls;

static void trcmp_poll_fn(struct work_struct *work)
{
	if (++trcmp_polls < TRCMP_POLLS)
		schedule_delayed_work(&trcmp_poll, HZ / 20);
}

static void trcmp_first_fn(struct work_struct *work)
{
	msleep(100);
}

static void trcmp_second_fn(struct work_struct *work)
{
}

static void trcmp_once_fn(struct work_struct *work)
{
}

static void trcmp_late_fn(struct work_struct *work)
{
}

static void trcmp_watch_fn(struct work_struct *work)
{
	schedule_delayed_work(&trcmp_watch, 120 * HZ);
}

static int __init trcmp_init(void)
{
	trcmp_wq = alloc_ordered_workqueue("trcmp", 0);	/* concurrent */
	if (!trcmp_wq)
		return -ENOMEM;
	INIT_DELAYED_WORK(&trcmp_poll, trcmp_poll_fn);
	INIT_WORK(&trcmp_first, trcmp_first_fn);
	INIT_WORK(&trcmp_second, trcmp_second_fn);
	INIT_WORK(&trcmp_once, trcmp_once_fn);
	INIT_DELAYED_WORK(&trcmp_late, trcmp_late_fn);
	INIT_DELAYED_WORK(&trcmp_watch, trcmp_watch_fn);
	schedule_delayed_work(&trcmp_poll, HZ / 20);
	queue_work(trcmp_wq, &trcmp_first);
	queue_work(trcmp_wq, &trcmp_second);
	schedule_work(&trcmp_once);	/* twice */
	schedule_delayed_work(&trcmp_late, HZ / 5);	/* delay */
	schedule_delayed_work(&trcmp_watch, HZ / 10);
	return 0;
}

static void __exit trcmp_exit(void)
{
	cancel_delayed_work_sync(&trcmp_watch);	/* no-cancel */
	cancel_delayed_work_sync(&trcmp_poll);
	cancel_delayed_work_sync(&trcmp_late);
	flush_work(&trcmp_once);
	destroy_workqueue(trcmp_wq);
}

module_init(trcmp_init);
module_exit(trcmp_exit);
MODULE_DESCRIPTION("wqport test: the port of trcmp-legacy that wqport compare checks");
MODULE_LICENSE("GPL");

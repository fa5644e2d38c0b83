// SPDX-License-Identifier: GPL-2.0
/*
 * trcmp: a driver of the 2.6.0-2.6.19 workqueue API whose deferred work
 * shows each thing `wqport compare` checks (tests/trace/broken-ports),
 * built against the shim.  Its port is ../trcmp-port; that test breaks
 * the port in one way at a time and expects the comparison to say so.
 *
 *  - poll: delayed work that arms itself again from its handler, until it
 *    has run TRCMP_POLLS times;
 *  - first, second: queued in that order on a single-thread workqueue;
 *    first sleeps, and second must not begin before first ends;
 *  - once: queued once, from the load;
 *  - late: delayed work, HZ / 5 after the load;
 *  - watch: a watchdog: runs HZ / 10 after the load, arms itself again
 *    for two minutes from its handler, and is cancelled at the unload.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#define TRCMP_POLLS	5

static struct workqueue_struct *trcmp_wq;
static struct work_struct trcmp_poll, trcmp_first, trcmp_second;
static struct work_struct trcmp_once, trcmp_late, trcmp_watch;
static int trcmp_polls;

static void trcmp_poll_fn(void *data)
{
	int *polls = data;

	if (++*polls < TRCMP_POLLS)
		schedule_delayed_work(&trcmp_poll, HZ / 20);
}

static void trcmp_first_fn(void *data)
{
	msleep(100);
}

static void trcmp_second_fn(void *data)
{
}

static void trcmp_once_fn(void *data)
{
}

static void trcmp_late_fn(void *data)
{
}

static void trcmp_watch_fn(void *data)
{
	schedule_delayed_work(&trcmp_watch, 120 * HZ);
}

static int __init trcmp_init(void)
{
	trcmp_wq = create_singlethread_workqueue("trcmp");
	if (!trcmp_wq)
		return -ENOMEM;
	INIT_WORK(&trcmp_poll, trcmp_poll_fn, &trcmp_polls);
	INIT_WORK(&trcmp_first, trcmp_first_fn, NULL);
	INIT_WORK(&trcmp_second, trcmp_second_fn, NULL);
	INIT_WORK(&trcmp_once, trcmp_once_fn, NULL);
	INIT_WORK(&trcmp_late, trcmp_late_fn, NULL);
	INIT_WORK(&trcmp_watch, trcmp_watch_fn, NULL);
	schedule_delayed_work(&trcmp_poll, HZ / 20);
	queue_work(trcmp_wq, &trcmp_first);
	queue_work(trcmp_wq, &trcmp_second);
	schedule_work(&trcmp_once);
	schedule_delayed_work(&trcmp_late, HZ / 5);
	schedule_delayed_work(&trcmp_watch, HZ / 10);
	return 0;
}

static void __exit trcmp_exit(void)
{
	cancel_delayed_work(&trcmp_watch);
	flush_scheduled_work();
	destroy_workqueue(trcmp_wq);
}

module_init(trcmp_init);
module_exit(trcmp_exit);
MODULE_DESCRIPTION("wqport test: deferred work for wqport compare's negative controls");
MODULE_LICENSE("GPL");

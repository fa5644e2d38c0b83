// SPDX-License-Identifier: GPL-2.0
/*
 * A careless legacy driver, for the unload tests (unload-loop.sh): while
 * loaded it keeps work busy on every queue the shim runs, 2.4 and 2.6,
 * each piece requeueing or re-arming itself, plus a bottom half, and a 2.6
 * handler that queues 2.4 tasks; its exit function stops none of them and
 * queues one more task.  wqcompat.ko must take all of it off at
 * MODULE_STATE_GOING, wait for what is running, report it naming this
 * module, and the kernel must not touch this module's memory after it is
 * gone (KASAN watches module memory on the debug kernel).
 */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/tqueue.h>
#include <linux/workqueue.h>

static unsigned long leaky_runs;

static void leaky_timer_fn(void *data);
static void leaky_sched_fn(void *data);
static void leaky_disk_fn(void *data);
static void leaky_imm_fn(void *data);

/* 2.4 style, static and GNU-initialised */
static struct tq_struct leaky_timer = { routine: leaky_timer_fn, data: NULL };
static struct tq_struct leaky_sched = { routine: leaky_sched_fn, data: NULL };
static struct tq_struct leaky_disk = { routine: leaky_disk_fn, data: NULL };
static struct tq_struct leaky_imm = { routine: leaky_imm_fn, data: NULL };
static struct tq_struct leaky_stuck = { routine: leaky_imm_fn, data: NULL };
static struct tq_struct leaky_from26 = { routine: leaky_imm_fn, data: NULL };
static DECLARE_TASK_QUEUE(leaky_private);

static void leaky_isicom_bh(void)
{
	leaky_runs++;
	/* a driver's private queue, driven from its own BH, as isicom did */
	run_task_queue(&leaky_private);
	queue_task(&leaky_imm, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static void leaky_timer_fn(void *data)
{
	leaky_runs++;
	queue_task(&leaky_timer, &tq_timer);
	mark_bh(ISICOM_BH);
}

static void leaky_imm_fn(void *data)
{
	leaky_runs++;
}

static void leaky_sched_fn(void *data)
{
	leaky_runs++;
	/*
	 * Sleeps, then schedules itself again: the unload must wait for it,
	 * not free it; and since keventd calls it again at once, it runs at
	 * almost every instant, so that the unload must also stop it from
	 * starting again rather than wait for a moment it is not running.
	 */
	usleep_range(500, 1000);
	schedule_task(&leaky_sched);
}

static void leaky_disk_fn(void *data)
{
	leaky_runs++;
	queue_task(&leaky_disk, &tq_disk);
}

/* 2.6 style: 3-argument macros, handlers taking void *. */
static struct workqueue_struct *leaky_wq;
static void leaky_w26_rearm_fn(void *data);
static void leaky_w26_busy_fn(void *data);
static void leaky_w26_mixed_fn(void *data);
static DECLARE_WORK(leaky_w26_rearm, leaky_w26_rearm_fn, NULL);
static struct work_struct leaky_w26_busy;
static struct work_struct leaky_w26_mixed;
/* half-converted: a modern item, queued with the 2.6 delayed call */
static struct work_struct leaky_modern;

/* Re-arms itself towards the driver's own queue, one jiffy on. */
static void leaky_w26_rearm_fn(void *data)
{
	leaky_runs++;
	queue_delayed_work(leaky_wq, &leaky_w26_rearm, 1);
}

/* Sleeps and queues itself again: running or queued at any instant. */
static void leaky_w26_busy_fn(void *data)
{
	leaky_runs++;
	usleep_range(200, 400);
	schedule_work(data);
}

/* A 2.6 handler that feeds the 2.4 layer, then re-arms itself. */
static void leaky_w26_mixed_fn(void *data)
{
	leaky_runs++;
	queue_task(&leaky_from26, &tq_timer);
	schedule_delayed_work(&leaky_w26_mixed, 1);
}

static void leaky_modern_fn(struct work_struct *work)
{
	leaky_runs++;
	schedule_delayed_work(work, 2);
}

static int __init leaky_init(void)
{
	leaky_wq = create_singlethread_workqueue("leaky");
	if (!leaky_wq)
		return -ENOMEM;
	init_bh(ISICOM_BH, leaky_isicom_bh);
	queue_task(&leaky_timer, &tq_timer);
	schedule_task(&leaky_sched);
	queue_task(&leaky_disk, &tq_disk);

	INIT_WORK(&leaky_w26_busy, leaky_w26_busy_fn, &leaky_w26_busy);
	INIT_WORK(&leaky_w26_mixed, leaky_w26_mixed_fn, NULL);
	INIT_WORK(&leaky_modern, leaky_modern_fn);
	queue_work(leaky_wq, &leaky_w26_rearm);
	schedule_work(&leaky_w26_busy);
	schedule_work(&leaky_w26_mixed);
	schedule_delayed_work(&leaky_modern, 2);
	return 0;
}

static void __exit leaky_exit(void)
{
	/* its own queue it destroys, with a handler re-arming towards it */
	destroy_workqueue(leaky_wq);
	/* stops nothing else; and this one is never run: nobody marks it */
	queue_task(&leaky_stuck, &tq_immediate);
	pr_info("wqcompat_leaky: leaving after %lu runs\n", leaky_runs);
}

module_init(leaky_init);
module_exit(leaky_exit);

MODULE_DESCRIPTION("wqcompat test: a legacy driver that unloads with 2.4 and 2.6 work queued");
MODULE_LICENSE("GPL");

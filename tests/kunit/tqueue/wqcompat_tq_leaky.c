// SPDX-License-Identifier: GPL-2.0
/*
 * A careless 2.4 driver, for the unload test (unload-loop.sh): while
 * loaded it keeps tasks busy on every queue the shim runs, each requeueing
 * itself, plus a bottom half; its exit function stops none of them and
 * queues one more of each.  wqcompat.ko must take all of them off at
 * MODULE_STATE_GOING, wait for the ones running, and complain naming
 * this module, and the kernel must not crash when the memory goes.
 */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/tqueue.h>

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

static int __init leaky_init(void)
{
	init_bh(ISICOM_BH, leaky_isicom_bh);
	queue_task(&leaky_timer, &tq_timer);
	schedule_task(&leaky_sched);
	queue_task(&leaky_disk, &tq_disk);
	return 0;
}

static void __exit leaky_exit(void)
{
	/* stops nothing; and this one is never run: nobody marks it */
	queue_task(&leaky_stuck, &tq_immediate);
	pr_info("wqcompat_tq_leaky: leaving after %lu runs\n", leaky_runs);
}

module_init(leaky_init);
module_exit(leaky_exit);

MODULE_DESCRIPTION("wqcompat test: a 2.4 driver that unloads with tasks queued");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the 2.6.0-2.6.19 workqueue API of wqcompat.ko:
 * one case per promise, a half-converted file, a stress run.
 *
 * Written the way a 2005 driver is: <linux/workqueue.h> is the overlay, and
 * handlers are void f(void *data).  No sleep is used as synchronisation:
 * completions, flushes, and (in one place) polling a task's state.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_params.h"

#define LONG_DELAY (1000 * HZ)

/* One legacy item's observable life. */
struct w26t {
	struct work_struct work;
	atomic_t runs;
	bool block;			/* wait for @release in the handler */
	struct completion started;
	struct completion release;
	struct completion done;		/* completed after each run */
	int cpu;			/* where the last run ran */
	bool in_irq;			/* last run was in interrupt context */
};

static void w26t_init(struct w26t *t)
{
	memset(t, 0, sizeof(*t));
	atomic_set(&t->runs, 0);
	init_completion(&t->started);
	init_completion(&t->release);
	init_completion(&t->done);
}

static struct w26t *w26t_new(struct kunit *test)
{
	struct w26t *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	w26t_init(t);
	return t;
}

/* The 2.6 handler: void f(void *data). */
static void w26t_handler(void *data)
{
	struct w26t *t = data;

	complete(&t->started);
	if (t->block)
		wait_for_completion(&t->release);
	t->cpu = raw_smp_processor_id();
	t->in_irq = in_interrupt();
	atomic_inc(&t->runs);
	complete(&t->done);
}

/* Promise: queueing returns nonzero only when newly queued. */
static void w26_queue_returns_once(struct kunit *test)
{
	struct w26t *blocker = w26t_new(test), *t = w26t_new(test);
	struct workqueue_struct *wq = create_singlethread_workqueue("w26t");

	KUNIT_ASSERT_NOT_NULL(test, wq);
	blocker->block = true;
	INIT_WORK(&blocker->work, w26t_handler, blocker);
	INIT_WORK(&t->work, w26t_handler, t);
	KUNIT_EXPECT_NE(test, queue_work(wq, &blocker->work), 0);
	wait_for_completion(&blocker->started);

	/* @t waits behind the blocker: it stays queued. */
	KUNIT_EXPECT_FALSE(test, work_pending(&t->work));
	KUNIT_EXPECT_NE(test, queue_work(wq, &t->work), 0);
	KUNIT_EXPECT_TRUE(test, work_pending(&t->work));
	KUNIT_EXPECT_EQ(test, queue_work(wq, &t->work), 0);
	KUNIT_EXPECT_EQ(test, queue_delayed_work(wq, &t->work, 1), 0);
	KUNIT_EXPECT_EQ(test, schedule_work(&t->work), 0);

	complete(&blocker->release);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&t->work));

	/* Idle again: queueing works again, and runs once more. */
	KUNIT_EXPECT_NE(test, queue_work(wq, &t->work), 0);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 2);
	destroy_workqueue(wq);
}

/*
 * Promise: a legacy delayed item is pending while its timer is armed (2.6
 * kept it in ->pending): queue_work() and a second queue_delayed_work()
 * return 0; cancel_delayed_work() returns nonzero only if it stopped it.
 */
static void w26_delayed_pending(struct kunit *test)
{
	struct w26t *t = w26t_new(test);
	struct workqueue_struct *wq = create_workqueue("w26t");

	KUNIT_ASSERT_NOT_NULL(test, wq);
	INIT_WORK(&t->work, w26t_handler, t);
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &t->work, LONG_DELAY), 0);
	KUNIT_EXPECT_TRUE(test, work_pending(&t->work));
	KUNIT_EXPECT_EQ(test, queue_delayed_work(wq, &t->work, 1), 0);
	KUNIT_EXPECT_EQ(test, queue_work(wq, &t->work), 0);
	KUNIT_EXPECT_NE(test, cancel_delayed_work(&t->work), 0);
	KUNIT_EXPECT_FALSE(test, work_pending(&t->work));
	KUNIT_EXPECT_EQ(test, cancel_delayed_work(&t->work), 0);

	/* A short delay runs it, once, and there is no timer left to stop. */
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &t->work, 2), 0);
	wait_for_completion(&t->done);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);
	KUNIT_EXPECT_EQ(test, cancel_delayed_work(&t->work), 0);
	KUNIT_EXPECT_FALSE(test, t->in_irq);

	/* Delay 0 queues at once (2.6.19 did the same). */
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &t->work, 0), 0);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 2);
	destroy_workqueue(wq);
}

/*
 * Promise: cancel_delayed_work() stops only the timer: it does not wait for
 * a running handler, and it does not take a queued item off its queue.
 */
static void w26_cancel_only_timer(struct kunit *test)
{
	struct w26t *t = w26t_new(test), *blocker = w26t_new(test);
	struct w26t *queued = w26t_new(test);
	struct workqueue_struct *wq = create_singlethread_workqueue("w26t");

	KUNIT_ASSERT_NOT_NULL(test, wq);
	t->block = true;
	INIT_WORK(&t->work, w26t_handler, t);
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &t->work, 1), 0);
	wait_for_completion(&t->started);
	/* The handler is blocked: if this waited for it, the case would hang. */
	KUNIT_EXPECT_EQ(test, cancel_delayed_work(&t->work), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 0);
	complete(&t->release);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);

	/* Queued (not armed): cancel_delayed_work returns 0, the item runs. */
	blocker->block = true;
	INIT_WORK(&blocker->work, w26t_handler, blocker);
	INIT_WORK(&queued->work, w26t_handler, queued);
	queue_work(wq, &blocker->work);
	wait_for_completion(&blocker->started);
	KUNIT_EXPECT_NE(test, queue_work(wq, &queued->work), 0);
	KUNIT_EXPECT_EQ(test, cancel_delayed_work(&queued->work), 0);
	KUNIT_EXPECT_TRUE(test, work_pending(&queued->work));
	complete(&blocker->release);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&queued->runs), 1);
	destroy_workqueue(wq);
}

static atomic_t w26t_other_runs;

static void w26t_other_handler(void *data)
{
	atomic_add((long)data, &w26t_other_runs);
}

/* Promise: PREPARE_WORK changes function and data, nothing else. */
static void w26_prepare_work(struct kunit *test)
{
	struct w26t *t = w26t_new(test);
	struct workqueue_struct *wq = create_singlethread_workqueue("w26t");
	struct list_head entry;
	unsigned long bits;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	atomic_set(&w26t_other_runs, 0);
	INIT_WORK(&t->work, w26t_handler, t);

	/* Armed: PREPARE_WORK leaves the timer and PENDING alone. */
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &t->work, LONG_DELAY), 0);
	bits = atomic_long_read(&t->work.data);
	entry = t->work.entry;
	PREPARE_WORK(&t->work, w26t_other_handler, (void *)10L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->work.data), bits);
	KUNIT_EXPECT_PTR_EQ(test, t->work.entry.next, entry.next);
	KUNIT_EXPECT_PTR_EQ(test, t->work.entry.prev, entry.prev);
	KUNIT_EXPECT_TRUE(test, work_pending(&t->work));
	KUNIT_EXPECT_NE(test, cancel_delayed_work(&t->work), 0);

	/* The next run calls the new pair. */
	KUNIT_EXPECT_NE(test, queue_work(wq, &t->work), 0);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_other_runs), 10);

	/* And back, on an idle item. */
	PREPARE_WORK(&t->work, w26t_handler, t);
	KUNIT_EXPECT_NE(test, queue_work(wq, &t->work), 0);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_other_runs), 10);
	destroy_workqueue(wq);
}

struct w26t_flusher {
	struct workqueue_struct *wq;
	struct completion about_to_flush;
	struct completion flushed;
};

static int w26t_flusher_fn(void *arg)
{
	struct w26t_flusher *f = arg;

	complete(&f->about_to_flush);
	flush_workqueue(f->wq);
	complete(&f->flushed);
	return 0;
}

/*
 * Promise: flush_workqueue() waits for work queued before the call, not for
 * work queued after it.  The late item blocks until the flush returned: a
 * flush that waited for it would never return (the case then fails after
 * 30 s rather than hang).  "After the call" is made sure of by waiting
 * until the flusher sleeps in the flush.
 */
static void w26_flush_only_earlier(struct kunit *test)
{
	struct w26t *early = w26t_new(test), *late = w26t_new(test);
	struct w26t_flusher *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct task_struct *task;
	unsigned long until;
	bool flushed;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->wq = create_workqueue("w26t");
	KUNIT_ASSERT_NOT_NULL(test, f->wq);
	init_completion(&f->about_to_flush);
	init_completion(&f->flushed);
	early->block = true;
	late->block = true;
	INIT_WORK(&early->work, w26t_handler, early);
	INIT_WORK(&late->work, w26t_handler, late);

	KUNIT_EXPECT_NE(test, queue_work(f->wq, &early->work), 0);
	wait_for_completion(&early->started);
	task = kthread_run(w26t_flusher_fn, f, "w26t_flusher");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	wait_for_completion(&f->about_to_flush);
	until = jiffies + 30 * HZ;
	while (task_is_running(task) && time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);

	KUNIT_EXPECT_NE(test, queue_work(f->wq, &late->work), 0);
	complete(&early->release);
	flushed = wait_for_completion_timeout(&f->flushed, 30 * HZ);
	KUNIT_EXPECT_TRUE(test, flushed);
	KUNIT_EXPECT_EQ(test, atomic_read(&early->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&late->runs), 0);
	complete(&late->release);
	if (!flushed)
		wait_for_completion(&f->flushed);
	put_task_struct(task);
	flush_workqueue(f->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&late->runs), 1);
	destroy_workqueue(f->wq);
}

/*
 * Promise: destroy_workqueue() flushes first.  Queued items all run; a
 * legacy timer still armed towards the queue is run now rather than fired
 * into a freed queue later (2.6 crashed then).
 */
static void w26_destroy_flushes(struct kunit *test)
{
	struct w26t *blocker = w26t_new(test), *t = w26t_new(test);
	struct w26t *armed = w26t_new(test);
	struct workqueue_struct *wq = create_singlethread_workqueue("w26t");
	struct work_struct *works;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	works = kunit_kzalloc(test, 8 * sizeof(*works), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, works);
	blocker->block = true;
	INIT_WORK(&blocker->work, w26t_handler, blocker);
	queue_work(wq, &blocker->work);
	wait_for_completion(&blocker->started);
	for (i = 0; i < 8; i++) {
		INIT_WORK(&works[i], w26t_handler, t);
		KUNIT_EXPECT_NE(test, queue_work(wq, &works[i]), 0);
	}
	INIT_WORK(&armed->work, w26t_handler, armed);
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &armed->work, LONG_DELAY), 0);
	complete(&blocker->release);
	destroy_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&armed->runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&armed->work));
}

static void w26t_modern_handler(struct work_struct *work)
{
	struct w26t *t = container_of(work, struct w26t, work);

	complete(&t->started);
	if (t->block)
		wait_for_completion(&t->release);
	atomic_inc(&t->runs);
	complete(&t->done);
}

/*
 * Promise: flush_scheduled_work() flushes the shim's events queue, not
 * system_wq.  That this file builds with W=1 without the kernel's
 * "Please avoid flushing system-wide workqueues" is the other half.
 */
static void w26_flush_scheduled_work(struct kunit *test)
{
	struct w26t *t = w26t_new(test), *sys = w26t_new(test);

	INIT_WORK(&t->work, w26t_handler, t);
	sys->block = true;
	INIT_WORK(&sys->work, w26t_modern_handler);
	/* The kernel's own schedule_work(): system_wq, blocked. */
	KUNIT_EXPECT_TRUE(test, (schedule_work)(&sys->work));
	wait_for_completion(&sys->started);

	KUNIT_EXPECT_NE(test, schedule_work(&t->work), 0);
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sys->runs), 0);
	complete(&sys->release);
	flush_work(&sys->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&sys->runs), 1);
}

/* schedule_delayed_work(_on) on a struct work_struct, and the CPU promise. */
static void w26_schedule_delayed(struct kunit *test)
{
	struct w26t *t = w26t_new(test);
	int cpu = cpumask_last(cpu_online_mask);

	INIT_WORK(&t->work, w26t_handler, t);
	KUNIT_EXPECT_NE(test, schedule_delayed_work(&t->work, LONG_DELAY), 0);
	KUNIT_EXPECT_EQ(test, schedule_delayed_work(&t->work, 1), 0);
	KUNIT_EXPECT_EQ(test, schedule_work(&t->work), 0);
	KUNIT_EXPECT_NE(test, cancel_delayed_work(&t->work), 0);

	KUNIT_EXPECT_NE(test, schedule_delayed_work_on(cpu, &t->work, 1), 0);
	wait_for_completion(&t->done);
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);
	KUNIT_EXPECT_EQ(test, t->cpu, cpu);
}

/* queue_delayed_work_on(): create_workqueue() queues are per CPU. */
static void w26_queue_delayed_on(struct kunit *test)
{
	struct w26t *t = w26t_new(test);
	struct workqueue_struct *wq = create_workqueue("w26t");
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	INIT_WORK(&t->work, w26t_handler, t);
	for_each_online_cpu(cpu) {
		reinit_completion(&t->done);
		KUNIT_EXPECT_NE(test, queue_delayed_work_on(cpu, wq, &t->work, 1), 0);
		wait_for_completion(&t->done);
		KUNIT_EXPECT_EQ(test, t->cpu, cpu);
	}
	destroy_workqueue(wq);
}

struct w26t_rearm {
	struct work_struct work;
	struct workqueue_struct *wq;
	atomic_t runs;
	struct completion three;
};

static void w26t_rearm_handler(void *data)
{
	struct w26t_rearm *r = data;

	if (atomic_inc_return(&r->runs) == 3)
		complete(&r->three);
	queue_delayed_work(r->wq, &r->work, 1);
}

static void w26t_rearm_now_handler(void *data)
{
	struct w26t_rearm *r = data;

	if (atomic_inc_return(&r->runs) == 3)
		complete(&r->three);
	queue_work(r->wq, &r->work);
}

/*
 * cancel_rearming_delayed_work(queue)(): converges on an item that re-arms
 * itself (through a timer or directly), and returns for an idle item (the
 * 2.6.19 loop never did).
 */
static void w26_cancel_rearming(struct kunit *test)
{
	struct w26t_rearm *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct w26t *idle = w26t_new(test);
	struct delayed_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	int runs;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, dw);
	r->wq = create_singlethread_workqueue("w26t");
	KUNIT_ASSERT_NOT_NULL(test, r->wq);

	init_completion(&r->three);
	INIT_WORK(&r->work, w26t_rearm_handler, r);
	queue_delayed_work(r->wq, &r->work, 1);
	wait_for_completion(&r->three);
	cancel_rearming_delayed_workqueue(r->wq, &r->work);
	runs = atomic_read(&r->runs);
	KUNIT_EXPECT_FALSE(test, work_pending(&r->work));
	flush_workqueue(r->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->runs), runs);

	atomic_set(&r->runs, 0);
	reinit_completion(&r->three);
	PREPARE_WORK(&r->work, w26t_rearm_now_handler, r);
	queue_work(r->wq, &r->work);
	wait_for_completion(&r->three);
	cancel_rearming_delayed_work(&r->work);
	runs = atomic_read(&r->runs);
	KUNIT_EXPECT_FALSE(test, work_pending(&r->work));
	flush_workqueue(r->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->runs), runs);

	INIT_WORK(&idle->work, w26t_handler, idle);
	cancel_rearming_delayed_work(&idle->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&idle->runs), 0);

	/* 2.6.20-2.6.22 form, struct delayed_work: the kernel's cancel. */
	INIT_DELAYED_WORK(dw, w26t_modern_handler);
	queue_delayed_work(r->wq, dw, LONG_DELAY);
	cancel_rearming_delayed_work(dw);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(dw));
	destroy_workqueue(r->wq);
}

struct w26t_each {
	atomic_t calls;
	atomic_t in_irq;
	unsigned long cpus[BITS_TO_LONGS(NR_CPUS)];
};

static void w26t_each_fn(void *info)
{
	struct w26t_each *e = info;

	set_bit(raw_smp_processor_id(), e->cpus);
	if (in_interrupt())
		atomic_inc(&e->in_irq);
	atomic_inc(&e->calls);
}

/* schedule_on_each_cpu(func, info): once per online CPU, on that CPU. */
static void w26_schedule_on_each_cpu(struct kunit *test)
{
	struct w26t_each *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, schedule_on_each_cpu(w26t_each_fn, e), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->calls), num_online_cpus());
	KUNIT_EXPECT_EQ(test, bitmap_weight(e->cpus, nr_cpu_ids),
			num_online_cpus());
	KUNIT_EXPECT_EQ(test, atomic_read(&e->in_irq), 0);
}

struct w26t_eipc {
	struct hrtimer timer;
	struct execute_work ew;
	struct w26t t;
	int ret;
};

static enum hrtimer_restart w26t_eipc_irq(struct hrtimer *timer)
{
	struct w26t_eipc *e = container_of(timer, struct w26t_eipc, timer);

	e->ret = execute_in_process_context(w26t_handler, &e->t, &e->ew);
	return HRTIMER_NORESTART;
}

/*
 * execute_in_process_context(fn, data, ew): runs at once in process
 * context (0), is deferred to process context from hard IRQ (1).
 */
static void w26_execute_in_process_context(struct kunit *test)
{
	struct w26t_eipc *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	w26t_init(&e->t);
	KUNIT_EXPECT_EQ(test, execute_in_process_context(w26t_handler, &e->t, &e->ew), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->t.runs), 1);

	reinit_completion(&e->t.done);
	e->ret = -1;
	hrtimer_init(&e->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	e->timer.function = w26t_eipc_irq;
	hrtimer_start(&e->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&e->t.done);
	hrtimer_cancel(&e->timer);
	KUNIT_EXPECT_EQ(test, e->ret, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->t.runs), 2);
	KUNIT_EXPECT_FALSE(test, e->t.in_irq);
	flush_scheduled_work();
}

/* DECLARE_WORK(n, f, d): file scope, static and not, and block scope. */
static struct w26t w26t_static_ctx;
static DECLARE_WORK(w26t_static_work, w26t_handler, &w26t_static_ctx);
static struct w26t w26t_global_ctx;
extern struct work_struct w26t_global_work;
DECLARE_WORK(w26t_global_work, w26t_handler, &w26t_global_ctx);

static void w26_declare_work(struct kunit *test)
{
	struct w26t *t = w26t_new(test);
	DECLARE_WORK(local, w26t_handler, t);

	w26t_init(&w26t_static_ctx);
	w26t_init(&w26t_global_ctx);
	KUNIT_EXPECT_FALSE(test, work_pending(&w26t_static_work));
	KUNIT_EXPECT_NE(test, schedule_work(&w26t_static_work), 0);
	/*
	 * Armed, it is pending: a long delay, so that no stall of the test
	 * lets the timer fire before the second call; then armed again for
	 * one jiffy, to run.
	 */
	KUNIT_EXPECT_NE(test, schedule_delayed_work(&w26t_global_work, LONG_DELAY), 0);
	KUNIT_EXPECT_EQ(test, schedule_work(&w26t_global_work), 0);
	KUNIT_EXPECT_NE(test, cancel_delayed_work(&w26t_global_work), 0);
	KUNIT_EXPECT_NE(test, schedule_delayed_work(&w26t_global_work, 1), 0);
	KUNIT_EXPECT_NE(test, schedule_work(&local), 0);
	wait_for_completion(&w26t_global_ctx.done);
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_static_ctx.runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_global_ctx.runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 1);

	/* Used again: the record is reused, and PREPARE_WORK applies. */
	PREPARE_WORK(&w26t_static_work, w26t_handler, t);
	KUNIT_EXPECT_NE(test, schedule_work(&w26t_static_work), 0);
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_static_ctx.runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->runs), 2);
	PREPARE_WORK(&w26t_static_work, w26t_handler, &w26t_static_ctx);
	destroy_work_on_stack(&local);
}

/*
 * A half-converted file: 2- and 3-argument INIT_WORK and DECLARE_WORK,
 * struct delayed_work * and struct work_struct * in the delayed calls,
 * side by side.
 */
static struct w26t w26t_half_modern_static_ctx;

static void w26t_half_static_fn(struct work_struct *work)
{
	atomic_inc(&w26t_half_modern_static_ctx.runs);
}

static DECLARE_WORK(w26t_half_modern_static, w26t_half_static_fn);

struct w26t_half {
	struct w26t legacy;		/* INIT_WORK(w, f, d) */
	struct w26t modern;		/* INIT_WORK(w, f) */
	struct w26t plain_delayed;	/* INIT_WORK(w, f), legacy delayed call */
	struct delayed_work dwork;	/* INIT_DELAYED_WORK */
	atomic_t dwork_runs;
	struct completion dwork_done;
};

static void w26t_half_dwork_fn(struct work_struct *work)
{
	struct w26t_half *h = container_of(to_delayed_work(work),
					   struct w26t_half, dwork);

	atomic_inc(&h->dwork_runs);
	complete(&h->dwork_done);
}

static atomic_t w26t_modern_calls;

static void w26t_modern_call(struct work_struct *work)
{
	atomic_inc(&w26t_modern_calls);
}

static void w26_half_converted(struct kunit *test)
{
	struct execute_work ew;
	struct w26t_half *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct workqueue_struct *wq;

	KUNIT_ASSERT_NOT_NULL(test, h);
	wq = create_workqueue("w26t");
	KUNIT_ASSERT_NOT_NULL(test, wq);
	w26t_init(&h->legacy);
	w26t_init(&h->modern);
	w26t_init(&h->plain_delayed);
	init_completion(&h->dwork_done);
	atomic_set(&w26t_half_modern_static_ctx.runs, 0);

	INIT_WORK(&h->legacy.work, w26t_handler, &h->legacy);
	INIT_WORK(&h->modern.work, w26t_modern_handler);
	INIT_WORK(&h->plain_delayed.work, w26t_modern_handler);
	INIT_DELAYED_WORK(&h->dwork, w26t_half_dwork_fn);

	KUNIT_EXPECT_NE(test, queue_work(wq, &h->legacy.work), 0);
	KUNIT_EXPECT_NE(test, queue_work(wq, &h->modern.work), 0);
	KUNIT_EXPECT_NE(test, schedule_work(&w26t_half_modern_static), 0);

	/* struct delayed_work *: the kernel's calls. */
	KUNIT_EXPECT_TRUE(test, queue_delayed_work(wq, &h->dwork, LONG_DELAY));
	KUNIT_EXPECT_FALSE(test, queue_delayed_work(wq, &h->dwork, 1));
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work(&h->dwork));
	KUNIT_EXPECT_TRUE(test, schedule_delayed_work(&h->dwork, 1));
	/* struct work_struct * with a modern handler: legacy timer. */
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &h->plain_delayed.work, LONG_DELAY), 0);
	KUNIT_EXPECT_EQ(test, queue_work(wq, &h->plain_delayed.work), 0);
	KUNIT_EXPECT_NE(test, cancel_delayed_work(&h->plain_delayed.work), 0);
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, &h->plain_delayed.work, 1), 0);

	wait_for_completion(&h->dwork_done);
	wait_for_completion(&h->plain_delayed.done);
	flush_workqueue(wq);
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&h->legacy.runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->modern.runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->plain_delayed.runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->dwork_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_half_modern_static_ctx.runs), 1);
	/* the modern item whose 2.6 timer ran is idle again: queued anew, it runs */
	KUNIT_EXPECT_FALSE(test, work_pending(&h->plain_delayed.work));
	reinit_completion(&h->plain_delayed.done);
	KUNIT_EXPECT_NE(test, queue_work(wq, &h->plain_delayed.work), 0);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&h->plain_delayed.done,
							    20 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&h->plain_delayed.runs), 2);
	destroy_workqueue(wq);

	/*
	 * The modern arity of execute_in_process_context.  (The 1-argument
	 * schedule_on_each_cpu is not exported to modules by 6.1.)
	 */
	atomic_set(&w26t_modern_calls, 0);
	KUNIT_EXPECT_EQ(test, execute_in_process_context(w26t_modern_call, &ew), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26t_modern_calls), 1);
}

static struct kunit_case w26_cases[] = {
	KUNIT_CASE(w26_queue_returns_once),
	KUNIT_CASE(w26_delayed_pending),
	KUNIT_CASE(w26_cancel_only_timer),
	KUNIT_CASE(w26_prepare_work),
	KUNIT_CASE(w26_flush_only_earlier),
	KUNIT_CASE(w26_destroy_flushes),
	KUNIT_CASE(w26_flush_scheduled_work),
	KUNIT_CASE(w26_schedule_delayed),
	KUNIT_CASE(w26_queue_delayed_on),
	KUNIT_CASE(w26_cancel_rearming),
	KUNIT_CASE(w26_schedule_on_each_cpu),
	KUNIT_CASE(w26_execute_in_process_context),
	KUNIT_CASE(w26_declare_work),
	KUNIT_CASE(w26_half_converted),
	{}
};

static struct kunit_suite w26_suite = {
	.name = "wqcompat_work26",
	.test_cases = w26_cases,
};

/* ------------------------------------------------------------------ */
/*
 * Stress: kthreads on every CPU, a hard-IRQ hrtimer and a softirq timer
 * queue, arm and cancel the same legacy items at once.  Exact accounting:
 * every call that returned nonzero from queue_work()/queue_delayed_work()
 * is matched by exactly one run or one cancel_delayed_work() that returned
 * nonzero.
 */
#define W26S_ITEMS 16
#define W26S_ITERS 3000
#define W26S_IRQ_OPS 1500

struct w26s_item {
	struct work_struct work;
	atomic_t queued_ok;
	atomic_t cancelled_ok;
	atomic_t runs;
};

struct w26s {
	struct workqueue_struct *wq;
	struct w26s_item items[W26S_ITEMS];
	atomic_t threads_left;
	struct completion threads_done;
	struct hrtimer hrt;
	u32 hrt_seed, timer_seed;
	int hrt_ops;
	struct completion hrt_done;
	struct timer_list timer;
	int timer_ops;
	struct completion timer_done;
	atomic_t in_hardirq_ops;
};

/*
 * A per-caller xorshift: get_random_u32() takes a spinlock_t, which a
 * hard-IRQ hrtimer may not (lockdep's raw-lock nesting check says so).
 */
static u32 w26s_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static void w26s_handler(void *data)
{
	struct w26s_item *it = data;

	atomic_inc(&it->runs);
}

/* One random operation on one random item; any context. */
static void w26s_op(struct w26s *s, u32 r)
{
	struct w26s_item *it = &s->items[r % W26S_ITEMS];

	switch ((r >> 8) % 4) {
	case 0:
		if (queue_work(s->wq, &it->work))
			atomic_inc(&it->queued_ok);
		break;
	case 1:
		if (queue_delayed_work(s->wq, &it->work, (r >> 16) % 3))
			atomic_inc(&it->queued_ok);
		break;
	case 2:
		if (schedule_delayed_work(&it->work, 1 + (r >> 16) % 2))
			atomic_inc(&it->queued_ok);
		break;
	default:
		if (cancel_delayed_work(&it->work))
			atomic_inc(&it->cancelled_ok);
		break;
	}
}

static int w26s_thread(void *arg)
{
	struct w26s *s = arg;
	u32 seed = get_random_u32() | 1;
	int i;

	for (i = 0; i < W26S_ITERS; i++) {
		w26s_op(s, w26s_rand(&seed));
		if (!(i % 64))
			cond_resched();
	}
	if (atomic_dec_and_test(&s->threads_left))
		complete(&s->threads_done);
	return 0;
}

static enum hrtimer_restart w26s_hrt(struct hrtimer *t)
{
	struct w26s *s = container_of(t, struct w26s, hrt);

	if (in_hardirq())
		atomic_inc(&s->in_hardirq_ops);
	w26s_op(s, w26s_rand(&s->hrt_seed));
	if (++s->hrt_ops == W26S_IRQ_OPS) {
		complete(&s->hrt_done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void w26s_timer(struct timer_list *t)
{
	struct w26s *s = from_timer(s, t, timer);
	int i;

	for (i = 0; i < 4; i++)
		w26s_op(s, w26s_rand(&s->timer_seed));
	if (++s->timer_ops == 200)
		complete(&s->timer_done);
	else
		mod_timer(&s->timer, jiffies + 1);
}

static void w26_stress(struct kunit *test)
{
	struct w26s *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int i, nthreads = 2 * num_online_cpus();
	long queued = 0, done = 0;
	/*
	 * The shim's own loss counters: a queueing it refused (no free
	 * record) or an item it could not run would look, to the counts
	 * below, like one that was already pending.
	 */
	long exhausted = w26_param_read("work26_exhausted");
	long lost = w26_param_read("work26_lost");

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_GE(test, exhausted, 0L);
	KUNIT_ASSERT_GE(test, lost, 0L);
	s->hrt_seed = get_random_u32() | 1;
	s->timer_seed = get_random_u32() | 1;
	s->wq = create_workqueue("w26s");
	KUNIT_ASSERT_NOT_NULL(test, s->wq);
	for (i = 0; i < W26S_ITEMS; i++)
		INIT_WORK(&s->items[i].work, w26s_handler, &s->items[i]);
	atomic_set(&s->threads_left, nthreads);
	init_completion(&s->threads_done);
	init_completion(&s->hrt_done);
	init_completion(&s->timer_done);

	hrtimer_init(&s->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s->hrt.function = w26s_hrt;
	timer_setup(&s->timer, w26s_timer, 0);
	hrtimer_start(&s->hrt, ns_to_ktime(200 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	mod_timer(&s->timer, jiffies + 1);
	for (i = 0; i < nthreads; i++) {
		struct task_struct *task;

		task = kthread_create(w26s_thread, s, "w26s/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
		kthread_bind(task, i % num_online_cpus());
		wake_up_process(task);
	}
	wait_for_completion(&s->threads_done);
	wait_for_completion(&s->hrt_done);
	wait_for_completion(&s->timer_done);
	hrtimer_cancel(&s->hrt);
	del_timer_sync(&s->timer);

	/* Quiesce: stop timers still armed (counted), run what is queued. */
	for (i = 0; i < W26S_ITEMS; i++)
		if (cancel_delayed_work(&s->items[i].work))
			atomic_inc(&s->items[i].cancelled_ok);
	flush_workqueue(s->wq);
	flush_scheduled_work();

	for (i = 0; i < W26S_ITEMS; i++) {
		struct w26s_item *it = &s->items[i];

		KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
		KUNIT_EXPECT_EQ(test, atomic_read(&it->queued_ok),
				atomic_read(&it->runs) + atomic_read(&it->cancelled_ok));
		queued += atomic_read(&it->queued_ok);
		done += atomic_read(&it->runs);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&s->in_hardirq_ops), W26S_IRQ_OPS);
	KUNIT_EXPECT_GT(test, done, 0L);
	KUNIT_EXPECT_EQ(test, w26_param_read("work26_exhausted"), exhausted);
	KUNIT_EXPECT_EQ(test, w26_param_read("work26_lost"), lost);
	kunit_info(test, "%d threads, %ld queued, %ld ran", nthreads, queued, done);
	destroy_workqueue(s->wq);
}

static struct kunit_case w26s_cases[] = {
	KUNIT_CASE(w26_stress),
	{}
};

static struct kunit_suite w26s_suite = {
	.name = "wqcompat_work26_stress",
	.test_cases = w26s_cases,
};

kunit_test_suites(&w26_suite, &w26s_suite);

MODULE_DESCRIPTION("KUnit suites for wqcompat's 2.6 workqueue API");
MODULE_LICENSE("GPL");

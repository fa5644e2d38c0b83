// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for flush_workqueue() and flush_scheduled_work() of the 2.6
 * API called from a handler on the queue it flushes, which 2.6 ran by hand
 * (2.6.18's flush_cpu_workqueue()).  One case per defect a review of the
 * shim found and reproduced there, named after it (N1-N6 of the second
 * compat review), each its scenario:
 *
 *  - n1: an item stolen from another CPU's queue by a flush from a handler
 *    (after hotplug) let an outside flush return while it ran;
 *  - n2: the flush runs an item by hand while a worker runs the same item
 *    (queued again, or re-armed: then before its delay);
 *  - n3: two handlers flush; the second was queued after the first's flush
 *    began: 2.6's flush waited for earlier items only;
 *  - n5: an item runs on a private queue and on events at once, then
 *    flushes its own queue: "its own" is the run's queue, not the record's;
 *  - n6: the flusher's CPU goes offline under it: its own queue is the one
 *    it runs for, not the current CPU's;
 *  - n4: a burst of first queueings from one hard IRQ on a fresh pool:
 *    every call returns 1 and every item runs once.
 *
 * Written the way a 2005 driver is: handlers are void f(void *data).  A
 * case that would deadlock on a broken shim waits with a timeout and
 * fails.  Two bounded waits give a defect its window and say so where
 * they are; no result depends on how long they last.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_cpus.h"
#include "wqcompat_w26_params.h"

#define W26F_WAIT	(20 * HZ)

static void w26f_most(atomic_t *most, int in)
{
	int was = atomic_read(most);

	while (in > was && !atomic_try_cmpxchg(most, &was, in))
		;
}

/* Wait until @task sleeps (in a flush), or 30 s. */
static void w26f_wait_asleep(struct task_struct *task)
{
	unsigned long until = jiffies + 30 * HZ;

	while (task_is_running(task) && time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
}

/* ------------------------------------------------------------------ */
/* N2 */

struct w26f_n2 {
	struct work_struct x, f;
	struct workqueue_struct *wq;	/* NULL: the events queue */
	int cpu;
	bool rearm;
	atomic_t inside, most, runs;
	struct completion run1_in, go1, f_done, overlap;
	int runs_at_flush_return;
};

static void w26f_n2_queue(struct w26f_n2 *n, struct work_struct *w)
{
	if (n->wq)
		queue_work_on(n->cpu, n->wq, w);
	else
		schedule_work_on(n->cpu, w);
}

static void w26f_n2_x(void *data)
{
	struct w26f_n2 *n = data;
	int in = atomic_inc_return(&n->inside);
	int run = atomic_inc_return(&n->runs);

	w26f_most(&n->most, in);
	if (in > 1)
		complete(&n->overlap);
	if (run == 1) {
		w26f_n2_queue(n, &n->x);	/* queued behind itself */
		complete(&n->run1_in);
		wait_for_completion(&n->go1);
	} else if (run == 2) {
		if (n->rearm)
			queue_delayed_work(n->wq ?: wqcompat_events_wq, &n->x,
					   1000 * HZ);
		else
			w26f_n2_queue(n, &n->x);
		/*
		 * Not synchronisation: a run beside this one would come now,
		 * while it is inside (2.6 never had one); give it a second.
		 */
		wait_for_completion_timeout(&n->overlap, HZ);
	}
	atomic_dec(&n->inside);
}

static void w26f_n2_f(void *data)
{
	struct w26f_n2 *n = data;

	if (n->wq)
		flush_workqueue(n->wq);
	else
		flush_scheduled_work();
	n->runs_at_flush_return = atomic_read(&n->runs);
	complete(&n->f_done);
}

static void w26f_n2_run(struct kunit *test, bool rearm, bool many)
{
	struct w26f_n2 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->cpu = raw_smp_processor_id();
	n->rearm = rearm;
	if (many) {	/* alloc_workqueue() of half-converted code */
		n->wq = alloc_workqueue("w26f_n2", 0, 0);
		KUNIT_ASSERT_NOT_NULL(test, n->wq);
	}
	init_completion(&n->run1_in);
	init_completion(&n->go1);
	init_completion(&n->f_done);
	init_completion(&n->overlap);
	INIT_WORK(&n->x, w26f_n2_x, n);
	INIT_WORK(&n->f, w26f_n2_f, n);
	w26f_n2_queue(n, &n->x);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->run1_in,
							    W26F_WAIT));
	/* the flusher, on the CPU where the item runs and is queued again */
	w26f_n2_queue(n, &n->f);
	complete(&n->go1);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->f_done,
							    W26F_WAIT));
	/* the flush waited for the run queued before it: the second */
	KUNIT_EXPECT_GE(test, n->runs_at_flush_return, 2);
	if (rearm)	/* and did not take the re-armed one early */
		KUNIT_EXPECT_EQ(test, n->runs_at_flush_return, 2);
	if (rearm)
		cancel_rearming_delayed_work(&n->x);
	if (n->wq) {
		destroy_workqueue(n->wq);	/* the third queueing runs */
	} else {
		flush_scheduled_work();
		cancel_rearming_delayed_work(&n->x);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&n->most), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&n->runs), rearm ? 2 : 3);
}

/*
 * N2: an events handler flushes while a worker of its CPU runs an item
 * that is queued again behind itself; that run queues it once more.  The
 * flush waits for the runs queued before it, and never runs the item
 * beside the worker's run (2.6: one keventd thread per CPU).
 */
static void w26_n2_flush_never_runs_an_item_beside_itself(struct kunit *test)
{
	w26f_n2_run(test, false, false);
}

/*
 * N2, re-armed: the worker's run re-arms the item for much later.  2.6's
 * flush never touched an armed timer: the item is not run before its
 * delay.
 */
static void w26_n2_flush_never_runs_a_rearmed_item_early(struct kunit *test)
{
	w26f_n2_run(test, true, false);
}

/*
 * N2 on a queue of many active items per CPU (alloc_workqueue(..., 0) in
 * half-converted code): the flusher runs beside the worker's run there,
 * and must still never take the item while that run goes on.
 */
static void w26_n2_many_active_flush_never_runs_an_item_beside_itself(struct kunit *test)
{
	w26f_n2_run(test, false, true);
}

/* ------------------------------------------------------------------ */
/* keventd: one item at a time per CPU */

struct w26f_keventd {
	struct work_struct a, b;
	struct completion a_in, a_go, b_in;
};

static void w26f_keventd_a(void *data)
{
	struct w26f_keventd *k = data;

	complete(&k->a_in);
	wait_for_completion(&k->a_go);		/* sleeps: the pool is free */
}

static void w26f_keventd_b(void *data)
{
	struct w26f_keventd *k = data;

	complete(&k->b_in);
}

/*
 * 2.6's keventd was one thread per CPU: an item queued behind a sleeping
 * handler of the same CPU waited for it.  The events queue keeps that (one
 * active item per CPU), which is also what keeps the items behind a
 * flushing handler for it alone (the theory of work26_flush.c).
 */
static void w26_events_runs_one_item_at_a_time_per_cpu(struct kunit *test)
{
	struct w26f_keventd *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	int cpu = raw_smp_processor_id();
	bool early;

	KUNIT_ASSERT_NOT_NULL(test, k);
	init_completion(&k->a_in);
	init_completion(&k->a_go);
	init_completion(&k->b_in);
	INIT_WORK(&k->a, w26f_keventd_a, k);
	INIT_WORK(&k->b, w26f_keventd_b, k);
	schedule_work_on(cpu, &k->a);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&k->a_in, W26F_WAIT));
	schedule_work_on(cpu, &k->b);
	/*
	 * Not synchronisation: a second worker of the CPU's pool would start
	 * B now, A sleeping; give it a second to show it.
	 */
	early = wait_for_completion_timeout(&k->b_in, HZ);
	complete(&k->a_go);
	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&k->b_in, W26F_WAIT));
	flush_scheduled_work();
}

/* ------------------------------------------------------------------ */
/* N3 */

struct w26f_n3 {
	struct work_struct f1, f2, x;
	struct task_struct *f2_task;
	struct completion x_in, x_go, f2_in, f1_done, f2_done;
	bool armed;
};

static void w26f_n3_x(void *data)
{
	struct w26f_n3 *n = data;

	if (!READ_ONCE(n->armed))
		return;
	complete(&n->x_in);
	wait_for_completion(&n->x_go);
}

static void w26f_n3_f1(void *data)
{
	struct w26f_n3 *n = data;

	schedule_work_on(0, &n->x);	/* behind this handler: run by hand */
	flush_scheduled_work();
	complete(&n->f1_done);
}

static void w26f_n3_f2(void *data)
{
	struct w26f_n3 *n = data;

	if (!READ_ONCE(n->armed))
		return;
	WRITE_ONCE(n->f2_task, current);
	complete(&n->f2_in);
	flush_scheduled_work();
	complete(&n->f2_done);
}

/*
 * N3: F1 (CPU 0) queues X and flushes, running X by hand; F2 (CPU 1) is
 * queued after F1's flush began, and flushes too.  F2 waits for F1, which
 * was queued before it; F1 must not wait for F2, queued after its flush
 * began (2.6 sampled insert_sequence): no deadlock.
 */
static void w26_n3_flush_waits_only_for_earlier_items(struct kunit *test)
{
	struct w26f_n3 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_TRUE(test, cpu_online(0) && cpu_online(1));
	init_completion(&n->x_in);
	init_completion(&n->x_go);
	init_completion(&n->f2_in);
	init_completion(&n->f1_done);
	init_completion(&n->f2_done);
	INIT_WORK(&n->x, w26f_n3_x, n);
	INIT_WORK(&n->f1, w26f_n3_f1, n);
	INIT_WORK(&n->f2, w26f_n3_f2, n);
	/* bind X, then F2, then F1: the order a walk of the records meets them */
	schedule_work(&n->x);
	schedule_work(&n->f2);
	flush_scheduled_work();
	WRITE_ONCE(n->armed, true);
	schedule_work_on(0, &n->f1);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->x_in,
							    W26F_WAIT));
	schedule_work_on(1, &n->f2);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->f2_in,
							    W26F_WAIT));
	w26f_wait_asleep(n->f2_task);	/* F2 in its flush */
	complete(&n->x_go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->f1_done,
							    W26F_WAIT));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->f2_done,
							    W26F_WAIT));
}

/* ------------------------------------------------------------------ */
/* N5 */

struct w26f_n5 {
	struct work_struct x;
	struct workqueue_struct *a;
	atomic_t runs;
	struct completion run1_in, run2_done, go, flushed;
};

static void w26f_n5_x(void *data)
{
	struct w26f_n5 *n = data;

	if (atomic_inc_return(&n->runs) == 1) {	/* on queue A */
		complete(&n->run1_in);
		wait_for_completion(&n->go);
		flush_workqueue(n->a);		/* its own queue: by hand */
		complete(&n->flushed);
	} else {				/* on events, meanwhile */
		complete(&n->run2_done);
	}
}

/*
 * N5: X runs on a private queue A; meanwhile it is queued on the events
 * queue and runs there to the end (the kernel runs one item on two queues
 * at once, as 2.6 could).  Then the run on A flushes A: a flush of its own
 * queue, which returns, whatever the other run did.
 */
static void w26_n5_own_queue_is_the_run_s(struct kunit *test)
{
	struct w26f_n5 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->a = create_singlethread_workqueue("w26f_a");
	KUNIT_ASSERT_NOT_NULL(test, n->a);
	init_completion(&n->run1_in);
	init_completion(&n->run2_done);
	init_completion(&n->go);
	init_completion(&n->flushed);
	INIT_WORK(&n->x, w26f_n5_x, n);
	queue_work(n->a, &n->x);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->run1_in,
							    W26F_WAIT));
	KUNIT_EXPECT_TRUE(test, schedule_work(&n->x));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->run2_done,
							    W26F_WAIT));
	complete(&n->go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->flushed,
							    W26F_WAIT));
	destroy_workqueue(n->a);
	KUNIT_EXPECT_EQ(test, atomic_read(&n->runs), 2);
}

/* ------------------------------------------------------------------ */
/* N6 */

struct w26f_n6 {
	struct work_struct h, x;
	struct workqueue_struct *wq;
	atomic_t x_runs;
	int x_runs_at_flush_return;
	struct completion h_in, go, flushed;
};

static void w26f_n6_x(void *data)
{
	struct w26f_n6 *n = data;

	atomic_inc(&n->x_runs);
}

static void w26f_n6_h(void *data)
{
	struct w26f_n6 *n = data;

	queue_work_on(1, n->wq, &n->x);		/* behind this handler */
	complete(&n->h_in);
	wait_for_completion(&n->go);		/* meanwhile CPU 1 goes */
	flush_workqueue(n->wq);
	n->x_runs_at_flush_return = atomic_read(&n->x_runs);
	complete(&n->flushed);
}

/*
 * N6: on a create_workqueue() queue, handler H on CPU 1 queues X behind
 * itself; CPU 1 goes offline (as at suspend), so H goes on on CPU 0; then
 * H flushes.  X is on H's own CPU queue, which H runs for: it runs by
 * hand, and the flush returns.
 */
static void w26_n6_flush_after_its_cpu_went_offline(struct kunit *test)
{
	struct w26f_n6 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_TRUE(test, cpu_online(0) && cpu_online(1));
	n->wq = create_workqueue("w26f_n6");
	KUNIT_ASSERT_NOT_NULL(test, n->wq);
	init_completion(&n->h_in);
	init_completion(&n->go);
	init_completion(&n->flushed);
	INIT_WORK(&n->x, w26f_n6_x, n);
	INIT_WORK(&n->h, w26f_n6_h, n);
	queue_work_on(1, n->wq, &n->h);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->h_in,
							    W26F_WAIT));
	ret = remove_cpu(1);
	complete(&n->go);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&n->flushed,
							    W26F_WAIT));
	if (!ret)
		KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_EQ(test, n->x_runs_at_flush_return, 1);
	destroy_workqueue(n->wq);
}

/* ------------------------------------------------------------------ */
/* N1 */

struct w26f_n1 {
	struct work_struct g, x, h;
	struct workqueue_struct *wq;
	struct task_struct *outside, *h_task;
	bool outside_returned_inside_x, x_finished, x_finished_at_h_return;
	struct completion g_go, x_in, x_go, h_in, h_go, h_flushing, h_done;
	struct completion outside_done;
};

static void w26f_n1_g(struct work_struct *work)	/* a modern gate */
{
	struct w26f_n1 *n = container_of(work, struct w26f_n1, g);

	wait_for_completion(&n->g_go);
}

static void w26f_n1_x(void *data)		/* uses what the flusher frees */
{
	struct w26f_n1 *n = data;

	complete(&n->x_in);
	wait_for_completion(&n->x_go);
	n->outside_returned_inside_x = completion_done(&n->outside_done);
	WRITE_ONCE(n->x_finished, true);
}

static void w26f_n1_h(void *data)
{
	struct w26f_n1 *n = data;

	WRITE_ONCE(n->h_task, current);
	complete(&n->h_in);
	wait_for_completion(&n->h_go);		/* meanwhile CPU 1 goes */
	complete(&n->h_flushing);
	flush_workqueue(n->wq);
	n->x_finished_at_h_return = READ_ONCE(n->x_finished);
	complete(&n->h_done);
}

static int w26f_n1_outside(void *data)	/* flush_workqueue(); kfree() */
{
	struct w26f_n1 *n = data;

	flush_workqueue(n->wq);
	complete(&n->outside_done);
	return 0;
}

/*
 * N1: on a create_workqueue() queue, X waits behind a gate G (a modern
 * item, which a flush from a handler does not wait for) on CPU 0; a
 * thread flushes the queue (then would free what X uses); after that
 * flush began, H is queued on CPU 1, CPU 1 goes offline, and H flushes.
 * X is not on H's own queue: H waits for it, and never runs it by hand,
 * so the outside flush cannot return while X runs (2.6: it waited for X).
 */
static void w26_n1_outside_flush_never_returns_while_its_item_runs(struct kunit *test)
{
	struct w26f_n1 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_TRUE(test, cpu_online(0) && cpu_online(1));
	n->wq = create_workqueue("w26f_n1");
	KUNIT_ASSERT_NOT_NULL(test, n->wq);
	init_completion(&n->g_go);
	init_completion(&n->x_in);
	init_completion(&n->x_go);
	init_completion(&n->h_in);
	init_completion(&n->h_go);
	init_completion(&n->h_flushing);
	init_completion(&n->h_done);
	init_completion(&n->outside_done);
	INIT_WORK(&n->g, w26f_n1_g);
	INIT_WORK(&n->x, w26f_n1_x, n);
	INIT_WORK(&n->h, w26f_n1_h, n);
	queue_work_on(0, n->wq, &n->g);
	queue_work_on(0, n->wq, &n->x);
	n->outside = kthread_run(w26f_n1_outside, n, "w26f_n1_flush");
	KUNIT_ASSERT_FALSE(test, IS_ERR(n->outside));
	w26f_wait_asleep(n->outside);		/* its flush began */
	queue_work_on(1, n->wq, &n->h);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->h_in,
							    W26F_WAIT));
	ret = remove_cpu(1);
	KUNIT_EXPECT_EQ(test, ret, 0);
	complete(&n->h_go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->h_flushing,
							    W26F_WAIT));
	w26f_wait_asleep(n->h_task);		/* in its flush, or in X */
	complete(&n->g_go);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->x_in,
							    W26F_WAIT));
	/*
	 * Not synchronisation: an outside flush that no longer waits for X
	 * returns now, while X runs; give it a second to show it.
	 */
	wait_for_completion_timeout(&n->outside_done, HZ);
	complete(&n->x_go);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&n->outside_done,
							    W26F_WAIT));
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&n->h_done,
							    W26F_WAIT));
	KUNIT_EXPECT_FALSE(test, n->outside_returned_inside_x);
	/* and H's flush waited for X, queued before it on CPU 0's queue */
	KUNIT_EXPECT_TRUE(test, n->x_finished_at_h_return);
	if (!ret)
		KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	destroy_workqueue(n->wq);
}

/* ------------------------------------------------------------------ */
/* N4 */

#define W26F_BURST 10000

struct w26f_burst {
	struct hrtimer hrt;
	struct workqueue_struct *wq;
	struct work_struct *items;
	atomic_t *runs;
	int refused;
	bool in_hardirq;
	long parked_a, parked_b;	/* two items seen parked, or -1 */
	bool a_pending, a_requeued, a_cancelled, b_pending_after_init;
	atomic_t held;			/* other CPUs held in their IPI */
	bool fired, release;
};

/* The last item before @from that is parked (unbound, and pending), or -1. */
static long w26f_parked_before(struct w26f_burst *b, long from)
{
	while (--from >= 0)
		if (READ_ONCE(b->items[from].func) == wqcompat_work_unbound &&
		    work_pending(&b->items[from]))
			break;
	return from;
}

static struct w26f_burst *w26f_burst_now;

static void w26f_burst_handler(void *data)
{
	atomic_inc(&w26f_burst_now->runs[(long)data]);
}

static enum hrtimer_restart w26f_burst_fn(struct hrtimer *t)
{
	struct w26f_burst *b = container_of(t, struct w26f_burst, hrt);
	long i;

	b->in_hardirq = in_hardirq();
	for (i = 0; i < W26F_BURST; i++) {
		INIT_WORK(&b->items[i], w26f_burst_handler, (void *)i);
		b->refused += !queue_work(b->wq, &b->items[i]);
	}
	/*
	 * Two parked items (the last two: no other CPU runs, so nothing has
	 * drained them): one is pending, queued again returns 0, and a cancel
	 * takes it; the other is initialised again, which resets it (2.6's
	 * INIT_WORK did).
	 */
	b->parked_a = w26f_parked_before(b, W26F_BURST);
	b->parked_b = b->parked_a > 0 ? w26f_parked_before(b, b->parked_a) : -1;
	if (b->parked_b >= 0) {
		struct work_struct *a = &b->items[b->parked_a];

		b->a_pending = work_pending(a);
		b->a_requeued = queue_work(b->wq, a);
		b->a_cancelled = cancel_work(a);
		INIT_WORK(&b->items[b->parked_b], w26f_burst_handler,
			  (void *)b->parked_b);
		b->b_pending_after_init = work_pending(&b->items[b->parked_b]);
	}
	WRITE_ONCE(b->release, true);
	smp_store_release(&b->fired, true);
	return HRTIMER_NORESTART;
}

/* Other CPUs: spin in the IPI, interrupts off, until the burst is done. */
static void w26f_burst_hold(void *info)
{
	struct w26f_burst *b = info;

	atomic_inc(&b->held);
	while (!READ_ONCE(b->release))
		cpu_relax();
}

/*
 * Fire the burst from a hard IRQ on this CPU while every other CPU spins
 * in an IPI with interrupts off: the pool's worker cannot add records nor
 * drain parked items during it, so which items park is fixed (all those
 * after the free records ran out).  Interrupts stay on here for the timer;
 * the burst takes no lock an interrupted CPU can hold (each is taken with
 * interrupts off, from hard IRQ too) and waits for no other CPU.
 */
static void w26f_burst_alone(struct w26f_burst *b)
{
	cpus_read_lock();
	preempt_disable();
	smp_call_function(w26f_burst_hold, b, 0);
	while (atomic_read(&b->held) < (int)num_online_cpus() - 1)
		cpu_relax();
	hrtimer_start(&b->hrt, ns_to_ktime(NSEC_PER_MSEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!smp_load_acquire(&b->fired))
		cpu_relax();
	preempt_enable();
	cpus_read_unlock();
}

/*
 * N4: 10,000 first queueings of fresh items from one hard IRQ, on a fresh
 * pool (this suite's module is loaded with a fresh wqcompat.ko, and this
 * case runs first): far more than the records kept free.  2.6 needed no
 * memory for it: every call returns 1, every item runs exactly once, and
 * nothing is counted as refused.  The burst must outrun the free records
 * (some items parked, the path it exists to prove).  In the same
 * interrupt, a parked item is queued again (0) and cancelled (true), and
 * another is initialised again (no longer pending): neither runs.
 */
static void w26_n4_hardirq_burst_every_first_queueing_runs(struct kunit *test)
{
	struct w26f_burst *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	long exhausted = w26_param_read("work26_exhausted");
	long parked = w26_param_read("work26_parked");
	int i, once = 0;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->items = kvcalloc(W26F_BURST, sizeof(*b->items), GFP_KERNEL);
	b->runs = kvcalloc(W26F_BURST, sizeof(*b->runs), GFP_KERNEL);
	b->wq = create_workqueue("w26f_burst");
	KUNIT_ASSERT_NOT_NULL(test, b->items);
	KUNIT_ASSERT_NOT_NULL(test, b->runs);
	KUNIT_ASSERT_NOT_NULL(test, b->wq);
	w26f_burst_now = b;
	hrtimer_init(&b->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	b->hrt.function = w26f_burst_fn;
	w26f_burst_alone(b);
	flush_workqueue(b->wq);
	for (i = 0; i < W26F_BURST; i++)
		once += atomic_read(&b->runs[i]) == 1;
	KUNIT_EXPECT_TRUE(test, b->in_hardirq);
	KUNIT_EXPECT_EQ(test, b->refused, 0);
	KUNIT_ASSERT_GE(test, b->parked_b, 0L);	/* two items were parked */
	KUNIT_EXPECT_TRUE(test, b->a_pending);
	KUNIT_EXPECT_FALSE(test, b->a_requeued);
	KUNIT_EXPECT_TRUE(test, b->a_cancelled);
	KUNIT_EXPECT_FALSE(test, b->b_pending_after_init);
	KUNIT_EXPECT_EQ(test, once, W26F_BURST - 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->runs[b->parked_a]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->runs[b->parked_b]), 0);
	KUNIT_EXPECT_GE(test, exhausted, 0);
	KUNIT_EXPECT_EQ(test, w26_param_read("work26_exhausted"), exhausted);
	/* the burst outran the free records: some first queueings parked */
	KUNIT_EXPECT_GT(test, w26_param_read("work26_parked"), parked);
	destroy_workqueue(b->wq);
	kvfree(b->items);
	kvfree(b->runs);
}

/* ------------------------------------------------------------------ */
/* An item that queues itself on another queue, then flushes that queue */

enum w26f_cross_how { W26F_CROSS_EVENTS, W26F_CROSS_FLUSH, W26F_CROSS_DESTROY };

struct w26f_cross {
	struct work_struct x;
	struct workqueue_struct *wq, *other;	/* other: NULL for events */
	enum w26f_cross_how how;
	atomic_t runs;
	int runs_at_return;
	bool queued;
	struct completion returned;
};

static void w26f_cross_x(void *data)
{
	struct w26f_cross *c = data;

	if (atomic_inc_return(&c->runs) != 1)
		return;
	switch (c->how) {
	case W26F_CROSS_EVENTS:
		c->queued = schedule_work(&c->x);
		flush_scheduled_work();
		break;
	case W26F_CROSS_FLUSH:
		c->queued = queue_work(c->other, &c->x);
		flush_workqueue(c->other);
		break;
	case W26F_CROSS_DESTROY:
		c->queued = queue_work(c->other, &c->x);
		destroy_workqueue(c->other);
		break;
	}
	c->runs_at_return = atomic_read(&c->runs);
	complete(&c->returned);
}

/*
 * X runs on a queue of its driver, queues itself on another queue (2.6:
 * it may, its pending bit was clear) and flushes or destroys that queue.
 * 2.6 ran X there, on that queue's thread, beside the first run: the call
 * returns once it ran.  The shim's one shadow for all queues would wait
 * there behind the first run, in the same pool, forever.  A deadlock on
 * a broken shim: the case waits W26F_WAIT, then fails and leaks.
 */
static void w26f_cross_run(struct kunit *test, bool per_cpu,
			   enum w26f_cross_how how)
{
	struct w26f_cross *c = kzalloc(sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->how = how;
	c->wq = per_cpu ? create_workqueue("w26f_cross") :
		create_singlethread_workqueue("w26f_cross");
	KUNIT_ASSERT_NOT_NULL(test, c->wq);
	if (how != W26F_CROSS_EVENTS) {
		c->other = per_cpu ? create_workqueue("w26f_cross2") :
			create_singlethread_workqueue("w26f_cross2");
		KUNIT_ASSERT_NOT_NULL(test, c->other);
	}
	init_completion(&c->returned);
	INIT_WORK(&c->x, w26f_cross_x, c);
	KUNIT_ASSERT_TRUE(test, queue_work(c->wq, &c->x));
	/* stuck: nothing can be freed or destroyed */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&c->returned,
							    W26F_WAIT));
	KUNIT_EXPECT_TRUE(test, c->queued);
	KUNIT_EXPECT_EQ(test, c->runs_at_return, 2);
	destroy_workqueue(c->wq);
	if (how == W26F_CROSS_FLUSH)
		destroy_workqueue(c->other);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->runs), 2);
	kfree(c);
}

static void w26_item_queues_itself_on_events_and_flushes_them(struct kunit *test)
{
	w26f_cross_run(test, true, W26F_CROSS_EVENTS);
}

static void w26_item_queues_itself_on_another_queue_and_flushes_it(struct kunit *test)
{
	w26f_cross_run(test, false, W26F_CROSS_FLUSH);
}

static void w26_item_queues_itself_on_another_queue_and_destroys_it(struct kunit *test)
{
	w26f_cross_run(test, false, W26F_CROSS_DESTROY);
}

/*
 * Two handlers of one per-CPU queue, X and Y, on two CPUs.  Y queues
 * itself on the events queue of its CPU, then flushes its own queue,
 * which waits for X's run; X flushes the events queue.  On 2.6 keventd
 * ran Y beside Y's first run, X's flush returned, then Y's.  With one
 * shadow for all queues, Y's events queueing waits in its pool behind
 * Y's first run, which waits for X, which waited for it.  A deadlock on a
 * broken shim: the case waits W26F_WAIT, then fails and leaks.
 */
struct w26f_pair {
	struct work_struct x, y;
	struct workqueue_struct *wq;
	int cpus[2];
	atomic_t x_runs, y_runs;
	bool y_queued;
	struct completion y_ready, x_done, y_done;
};

static void w26f_pair_y(void *data)
{
	struct w26f_pair *p = data;

	if (atomic_inc_return(&p->y_runs) != 1)
		return;
	p->y_queued = schedule_work_on(p->cpus[1], &p->y);
	complete(&p->y_ready);
	flush_workqueue(p->wq);		/* its own: waits for X's run */
	complete(&p->y_done);
}

static void w26f_pair_x(void *data)
{
	struct w26f_pair *p = data;

	atomic_inc(&p->x_runs);
	if (wait_for_completion_timeout(&p->y_ready, W26F_WAIT))
		flush_scheduled_work();
	complete(&p->x_done);
}

static void w26_two_handlers_flush_queues_their_items_wait_on(struct kunit *test)
{
	struct w26f_pair *p = kzalloc(sizeof(*p), GFP_KERNEL);
	bool done;

	KUNIT_ASSERT_NOT_NULL(test, p);
	if (!w26_two_cpus(p->cpus)) {
		kfree(p);
		kunit_skip(test, "needs two CPUs");
	}
	p->wq = create_workqueue("w26f_pair");
	KUNIT_ASSERT_NOT_NULL(test, p->wq);
	init_completion(&p->y_ready);
	init_completion(&p->x_done);
	init_completion(&p->y_done);
	INIT_WORK(&p->x, w26f_pair_x, p);
	INIT_WORK(&p->y, w26f_pair_y, p);
	queue_work_on(p->cpus[0], p->wq, &p->x);
	queue_work_on(p->cpus[1], p->wq, &p->y);
	done = wait_for_completion_timeout(&p->x_done, W26F_WAIT) &&
	       wait_for_completion_timeout(&p->y_done, W26F_WAIT);
	/* stuck: nothing can be freed or destroyed */
	KUNIT_ASSERT_TRUE(test, done);
	flush_scheduled_work();
	KUNIT_EXPECT_TRUE(test, p->y_queued);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->x_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->y_runs), 2);
	destroy_workqueue(p->wq);
	kfree(p);
}

/*
 * X, a handler of a per-CPU queue, flushes its own queue while Y, running
 * on the events queue of the other CPU, has queued itself on X's queue
 * there and waits for X's flush to return.  On 2.6 that CPU's thread of
 * X's queue ran Y beside Y's events run, and the flush returned.  Here
 * Y's queueing waits in its pool behind Y's events run: the flush runs it
 * by hand, and knows that queueing has run even while Y's events run goes
 * on.  Y's wait is bounded: a broken shim fails the case, it does not
 * hang.
 */
struct w26f_behind {
	struct work_struct x, y;
	struct workqueue_struct *wq;
	int cpus[2];
	atomic_t y_runs;
	int y_runs_at_flush;
	bool y_queued, y_saw_flush;
	struct completion y_ready, x_flushed, y_done;
};

static void w26f_behind_y(void *data)
{
	struct w26f_behind *b = data;

	if (atomic_inc_return(&b->y_runs) != 1)
		return;
	b->y_queued = queue_work_on(b->cpus[1], b->wq, &b->y);
	complete(&b->y_ready);
	b->y_saw_flush = wait_for_completion_timeout(&b->x_flushed, W26F_WAIT);
	complete(&b->y_done);
}

static void w26f_behind_x(void *data)
{
	struct w26f_behind *b = data;

	wait_for_completion_timeout(&b->y_ready, W26F_WAIT);
	flush_workqueue(b->wq);		/* its own */
	b->y_runs_at_flush = atomic_read(&b->y_runs);
	complete(&b->x_flushed);
}

static void w26_own_queue_flush_runs_an_item_waiting_behind_its_events_run(struct kunit *test)
{
	struct w26f_behind *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	if (!w26_two_cpus(b->cpus))
		kunit_skip(test, "needs two CPUs");
	b->wq = create_workqueue("w26f_behind");
	KUNIT_ASSERT_NOT_NULL(test, b->wq);
	init_completion(&b->y_ready);
	init_completion(&b->x_flushed);
	init_completion(&b->y_done);
	INIT_WORK(&b->x, w26f_behind_x, b);
	INIT_WORK(&b->y, w26f_behind_y, b);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(b->cpus[1], &b->y));
	KUNIT_ASSERT_TRUE(test, queue_work_on(b->cpus[0], b->wq, &b->x));
	/* both waits are bounded: these return */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&b->y_done,
							    2 * W26F_WAIT));
	flush_workqueue(b->wq);
	flush_scheduled_work();
	KUNIT_EXPECT_TRUE(test, b->y_queued);
	KUNIT_EXPECT_TRUE(test, b->y_saw_flush);
	KUNIT_EXPECT_EQ(test, b->y_runs_at_flush, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->y_runs), 2);
	destroy_workqueue(b->wq);
}

/* ------------------------------------------------------------------ */
/* A flush never waits for an item that runs only on other queues */

struct w26f_two {
	struct work_struct x, s;
	struct workqueue_struct *wq, *st;
	atomic_t x_in;
	struct completion x_both, s_flushed;
	atomic_t x_saw_flush;		/* runs of x that saw s's flush return */
	atomic_t x_done;
	wait_queue_head_t waitq;
};

static void w26f_two_x_fn(void *data)
{
	struct w26f_two *t = data;

	if (atomic_inc_return(&t->x_in) == 2)
		complete_all(&t->x_both);
	wake_up(&t->waitq);
	wait_for_completion_timeout(&t->x_both, W26F_WAIT);
	/* both runs wait for the flush of a third queue, bounded */
	if (wait_for_completion_timeout(&t->s_flushed, 10 * HZ))
		atomic_inc(&t->x_saw_flush);
	atomic_inc(&t->x_done);
	wake_up(&t->waitq);
}

static void w26f_two_s_fn(void *data)
{
	struct w26f_two *t = data;

	flush_workqueue(t->st);		/* its own queue */
	complete_all(&t->s_flushed);
}

/*
 * An item runs on two queues at once (a private queue and events, on two
 * CPUs, each run waiting for the other to begin), and both runs wait for a handler
 * of a third, single-thread queue to flush that queue.  2.6's flush of a
 * queue waited only for what was on that queue: the flush returns, the
 * runs see it.  Before, the shim knew only that the item ran "on several
 * queues" and waited for it: each waited for the other, until the runs'
 * 10 s bound.
 */
static void w26_flush_ignores_an_item_running_on_two_other_queues(struct kunit *test)
{
	struct w26f_two *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int cpus[2];

	KUNIT_ASSERT_NOT_NULL(test, t);
	if (!w26_two_cpus(cpus))
		kunit_skip(test, "needs two CPUs");
	t->wq = create_workqueue("w26f_two");
	t->st = create_singlethread_workqueue("w26f_two_st");
	KUNIT_ASSERT_NOT_NULL(test, t->wq);
	KUNIT_ASSERT_NOT_NULL(test, t->st);
	init_completion(&t->x_both);
	init_completion(&t->s_flushed);
	init_waitqueue_head(&t->waitq);
	INIT_WORK(&t->x, w26f_two_x_fn, t);
	INIT_WORK(&t->s, w26f_two_s_fn, t);
	/* one pool per CPU: a run on each CPU's, so that they overlap */
	KUNIT_ASSERT_TRUE(test, queue_work_on(cpus[0], t->wq, &t->x));
	/* once the first run began (no longer pending), on events too */
	KUNIT_ASSERT_TRUE(test, wait_event_timeout(t->waitq,
			  atomic_read(&t->x_in) >= 1, W26F_WAIT));
	KUNIT_ASSERT_TRUE(test, schedule_work_on(cpus[1], &t->x));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&t->x_both,
							    W26F_WAIT));
	KUNIT_ASSERT_TRUE(test, queue_work(t->st, &t->s));
	KUNIT_ASSERT_TRUE(test, wait_event_timeout(t->waitq,
			  atomic_read(&t->x_done) == 2, 60 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->x_saw_flush), 2);
	flush_workqueue(t->st);
	flush_scheduled_work();
	destroy_workqueue(t->st);
	destroy_workqueue(t->wq);
}

static struct kunit_case w26f_cases[] = {
	KUNIT_CASE(w26_n4_hardirq_burst_every_first_queueing_runs),
	KUNIT_CASE(w26_n2_flush_never_runs_an_item_beside_itself),
	KUNIT_CASE(w26_n2_flush_never_runs_a_rearmed_item_early),
	KUNIT_CASE(w26_n2_many_active_flush_never_runs_an_item_beside_itself),
	KUNIT_CASE(w26_events_runs_one_item_at_a_time_per_cpu),
	KUNIT_CASE(w26_n3_flush_waits_only_for_earlier_items),
	KUNIT_CASE(w26_n5_own_queue_is_the_run_s),
	KUNIT_CASE(w26_n6_flush_after_its_cpu_went_offline),
	KUNIT_CASE(w26_n1_outside_flush_never_returns_while_its_item_runs),
	KUNIT_CASE(w26_flush_ignores_an_item_running_on_two_other_queues),
	KUNIT_CASE(w26_item_queues_itself_on_events_and_flushes_them),
	KUNIT_CASE(w26_item_queues_itself_on_another_queue_and_flushes_it),
	KUNIT_CASE(w26_item_queues_itself_on_another_queue_and_destroys_it),
	KUNIT_CASE(w26_two_handlers_flush_queues_their_items_wait_on),
	KUNIT_CASE(w26_own_queue_flush_runs_an_item_waiting_behind_its_events_run),
	{}
};

static struct kunit_suite w26f_suite = {
	.name = "wqcompat_work26_flush",
	.test_cases = w26f_cases,
};
kunit_test_suite(w26f_suite);

MODULE_DESCRIPTION("KUnit: a 2.6 handler flushing its own queue, on wqcompat.ko");
MODULE_LICENSE("GPL");

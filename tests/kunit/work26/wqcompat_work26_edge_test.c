// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the 2.6 workqueue API of wqcompat.ko: the idioms 2.6
 * drivers used at the edges of the API, each case named after the promise
 * it holds the shim to (a kernel review found each one broken once):
 *
 *  - a handler gets its own item as void * and re-queues it as such;
 *  - a handler re-arms itself while its queue is destroyed;
 *  - many items, freed and allocated, or on the stack, or queued in a
 *    burst from an interrupt: every queueing that returned nonzero runs;
 *  - a handler flushes the queue it runs on (2.6 ran it by hand);
 *  - a handler on the events queue flushes other queues;
 *  - "static DECLARE_WORK(...)" inside a function;
 *  - a legacy item inside a struct delayed_work queued again while queued;
 *  - a handler re-initialises its own item, and a cancel or flush that
 *    starts after that still waits for it;
 *  - a struct copy of an item lands where another item lived;
 *  - an item run by hand in a flush is seen running by every other call;
 *  - a handler flushes its own queue while other workers run its items,
 *    or calls schedule_on_each_cpu() from the events queue;
 *  - a queueing refused because the item is pending on another queue;
 *  - keventd_up() and current_is_keventd() of 2.6, from an interrupt and
 *    for modern items too.
 *
 * Written the way a 2005 driver is: handlers are void f(void *data).
 * Waiting is a completion or a flush; the one sleep in a handler only
 * widens a window and is commented as such.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tqueue.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "wqcompat_quiet.h"
#include "wqcompat_w26_cpus.h"
#include "wqcompat_w26_params.h"

#define LONG_DELAY (1000 * HZ)

struct w26e {
	struct work_struct work;
	u8 guard[64];			/* must stay as it was */
	atomic_t runs;
	struct completion done;
};

static struct w26e *w26e_new(struct kunit *test)
{
	struct w26e *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	memset(e->guard, 0xa5, sizeof(e->guard));
	atomic_set(&e->runs, 0);
	init_completion(&e->done);
	return e;
}

static bool w26e_guard_intact(struct w26e *e)
{
	return !memchr_inv(e->guard, 0xa5, sizeof(e->guard));
}

static void w26e_handler(void *data)
{
	struct w26e *e = data;

	atomic_inc(&e->runs);
	complete(&e->done);
}

/*
 * Promise: the delayed-work calls take a void * as the legacy struct
 * work_struct *: 2.6 handlers got their own item as void *data and
 * re-armed it like that.  Taken as a struct delayed_work, the item would
 * be written past its end (into @guard).
 */
static void w26_void_star_is_legacy(struct kunit *test)
{
	struct w26e *e = w26e_new(test);
	struct workqueue_struct *wq = create_singlethread_workqueue("w26e");
	void *p = &e->work;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	INIT_WORK(&e->work, w26e_handler, e);
	KUNIT_EXPECT_NE(test, schedule_delayed_work(p, 1), 0);
	wait_for_completion(&e->done);
	flush_scheduled_work();
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, p, LONG_DELAY), 0);
	KUNIT_EXPECT_TRUE(test, work_pending(&e->work));
	KUNIT_EXPECT_EQ(test, queue_delayed_work(wq, p, 1), 0);
	KUNIT_EXPECT_NE(test, cancel_delayed_work(p), 0);
	KUNIT_EXPECT_FALSE(test, work_pending(&e->work));
	KUNIT_EXPECT_NE(test, queue_delayed_work(wq, p, LONG_DELAY), 0);
	cancel_rearming_delayed_work(p);
	KUNIT_EXPECT_FALSE(test, work_pending(&e->work));
	reinit_completion(&e->done);
	KUNIT_EXPECT_NE(test, queue_delayed_work_on(0, wq, p, 1), 0);
	wait_for_completion(&e->done);
	cancel_rearming_delayed_workqueue(wq, p);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->runs), 2);
	KUNIT_EXPECT_TRUE(test, w26e_guard_intact(e));
	destroy_workqueue(wq);
}

/*
 * A handler that re-arms itself towards its queue: its first run arms a
 * timer that will not fire by itself before the test ends, then returns
 * only once destroy_workqueue() has marked the queue dying (a state, polled);
 * every later run's re-arm comes during the destroy.
 */
struct w26e_rearm {
	struct w26e e;
	struct workqueue_struct *wq;
	struct completion started;
	atomic_t rearmed;		/* re-arms that returned nonzero */
	atomic_t refused;		/* re-arms that returned 0 */
	bool dying_seen;		/* the first run saw the queue dying */
};

static void w26e_rearm_handler(void *data)
{
	struct w26e_rearm *r = data;
	unsigned long until = jiffies + 30 * HZ;
	bool first = atomic_inc_return(&r->e.runs) == 1;

	if (queue_delayed_work(r->wq, &r->e.work, LONG_DELAY))
		atomic_inc(&r->rearmed);
	else
		atomic_inc(&r->refused);
	if (!first)
		return;
	complete(&r->started);
	while (!atomic_read(&wqcompat_w26_dying_wqs) &&
	       time_before(jiffies, until))
		msleep(1);
	r->dying_seen = atomic_read(&wqcompat_w26_dying_wqs);
}

/*
 * Promise: destroy_workqueue() of a queue whose handler keeps re-arming
 * itself neither wedges the item (pending forever, never queued), nor drops
 * a re-arm that returned nonzero, nor fires a timer into the freed queue:
 * the timer armed before the destroy runs its item at once (not
 * LONG_DELAY later, after the free), and the re-arm of that run, made
 * during the destroy, returns 0.  Afterwards the item is idle and can be
 * queued elsewhere, and cancelling it returns at once.  Both paths are
 * taken every time: the first run holds until the queue is dying.
 */
static void w26_rearm_during_destroy(struct kunit *test)
{
	struct w26e_rearm *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct workqueue_struct *other = create_singlethread_workqueue("w26o");

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, other);
	r->wq = create_singlethread_workqueue("w26e");
	KUNIT_ASSERT_NOT_NULL(test, r->wq);
	init_completion(&r->e.done);
	init_completion(&r->started);
	INIT_WORK(&r->e.work, w26e_rearm_handler, r);
	KUNIT_EXPECT_NE(test, queue_work(r->wq, &r->e.work), 0);
	wait_for_completion(&r->started);
	destroy_workqueue(r->wq);
	KUNIT_EXPECT_TRUE(test, r->dying_seen);
	/* the armed re-arm ran inside the destroy; its own re-arm was refused */
	KUNIT_EXPECT_EQ(test, atomic_read(&r->e.runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->rearmed), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->refused), 1);

	KUNIT_EXPECT_FALSE(test, work_pending(&r->e.work));
	PREPARE_WORK(&r->e.work, w26e_handler, &r->e);
	KUNIT_EXPECT_NE(test, queue_work(other, &r->e.work), 0);
	flush_workqueue(other);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->e.runs), 3);
	cancel_rearming_delayed_work(&r->e.work);
	KUNIT_EXPECT_FALSE(test, work_pending(&r->e.work));
	destroy_workqueue(other);
}

static atomic_t w26e_count;

static void w26e_count_handler(void *data)
{
	atomic_inc(&w26e_count);
}

/*
 * Promise: no fixed cap on legacy items.  More items than the old pool's
 * 65536 records, at distinct addresses, initialised and queued at once:
 * every one runs.  Then they are freed (vfree: the pages go away) and a
 * second set of as many runs too.
 */
#define W26E_MANY 70000

static void w26_many_items_all_run(struct kunit *test)
{
	struct workqueue_struct *wq = create_workqueue("w26e");
	struct work_struct *items;
	int round, i, queued;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	for (round = 0; round < 2; round++) {
		items = vmalloc(array_size(W26E_MANY, sizeof(*items)));
		KUNIT_ASSERT_NOT_NULL(test, items);
		atomic_set(&w26e_count, 0);
		queued = 0;
		for (i = 0; i < W26E_MANY; i++) {
			INIT_WORK(&items[i], w26e_count_handler, NULL);
			queued += !!queue_work(wq, &items[i]);
			if (!(i % 1024))
				cond_resched();
		}
		flush_workqueue(wq);
		KUNIT_EXPECT_EQ(test, queued, W26E_MANY);
		KUNIT_EXPECT_EQ(test, atomic_read(&w26e_count), W26E_MANY);
		vfree(items);
	}
	destroy_workqueue(wq);
}

/*
 * Promise: the record of an item that is gone comes back.  Nothing tells
 * the shim when a driver frees an item; once the item's memory holds
 * something else, a reclaim pass (run by the pool when it runs low, or on
 * demand through work26_reclaim) gives its record back.
 */
#define W26E_GONE 5000

static void w26_items_gone_give_records_back(struct kunit *test)
{
	struct workqueue_struct *wq = create_workqueue("w26e");
	struct work_struct *items;
	long before, after;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	items = kcalloc(W26E_GONE, sizeof(*items), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	atomic_set(&w26e_count, 0);
	for (i = 0; i < W26E_GONE; i++) {
		INIT_WORK(&items[i], w26e_count_handler, NULL);
		queue_work(wq, &items[i]);
	}
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26e_count), W26E_GONE);
	/* first the records of earlier cases' items: count only these */
	KUNIT_ASSERT_EQ(test, w26_param_write("work26_reclaim", "1"), 0);
	before = w26_param_read("work26_bound");
	KUNIT_ASSERT_GE(test, before, (long)W26E_GONE);
	/* The memory is someone else's now: the items are gone. */
	memset(items, 0x5a, W26E_GONE * sizeof(*items));
	KUNIT_ASSERT_EQ(test, w26_param_write("work26_reclaim", "1"), 0);
	after = w26_param_read("work26_bound");
	KUNIT_EXPECT_LE(test, after, before - W26E_GONE);
	kunit_info(test, "records bound: %ld, then %ld after the reclaim pass",
		   before, after);
	kfree(items);
	destroy_workqueue(wq);
}

/*
 * Promise: an item on the stack, initialised, scheduled and flushed by the
 * function that declared it (a common 2.6 pattern), works every time and,
 * on a kernel with debugobjects, without an "object is on stack" report
 * (a WARN: wqcompat_quiet.h).
 */
static noinline void w26e_on_stack_once(struct w26e *e)
{
	struct work_struct w;

	INIT_WORK(&w, w26e_handler, e);
	schedule_work(&w);
	flush_scheduled_work();
}

static void w26_on_stack_item(struct kunit *test)
{
	struct w26e *e = w26e_new(test);
	struct wqt_quiet q = wqt_quiet_now();
	int i;

	for (i = 0; i < 2000; i++)
		w26e_on_stack_once(e);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->runs), 2000);
	WQT_EXPECT_QUIET(test, q);
}

/*
 * C3: an item declared on the stack with DECLARE_WORK (its lockdep key is
 * the item itself), first queued by another task: a worker, given the
 * item by the function that declared it, which then waits for it to run.
 * The item runs once; on a kernel with lockdep, lockdep stays on (a stack
 * address given to it as a class key is "not registered", and switches it
 * off for the rest of the boot).
 */
struct w26e_c3 {
	struct work_struct queuer;	/* modern */
	struct work_struct *item;	/* legacy, on the caller's stack */
};

static void w26e_c3_queue_fn(struct work_struct *work)
{
	struct w26e_c3 *q = container_of(work, struct w26e_c3, queuer);

	schedule_work(q->item);
}

static noinline void w26e_c3_once(struct w26e *e)
{
	DECLARE_WORK(w, w26e_handler, e);
	struct w26e_c3 q = { .item = &w };

	INIT_WORK_ONSTACK(&q.queuer, w26e_c3_queue_fn);
	(queue_work)(system_wq, &q.queuer);
	(flush_work)(&q.queuer);
	destroy_work_on_stack(&q.queuer);
	flush_scheduled_work();		/* the item was queued before */
}

static void w26_c3_onstack_declare_work_queued_by_another_task(struct kunit *test)
{
	struct w26e *e = w26e_new(test);
	struct wqt_quiet q = wqt_quiet_now();

	w26e_c3_once(e);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->runs), 1);
	WQT_EXPECT_QUIET(test, q);
}

/*
 * Promise: a burst of first queueings from hard IRQ never reports success
 * for work that will not run.  Each queue_work() that returned nonzero
 * runs exactly once; one that could not have a record returned 0 (and the
 * kernel log says why).
 */
#define W26E_BURST 3000

struct w26e_burst {
	struct hrtimer hrt;
	struct workqueue_struct *wq;
	struct work_struct *items;
	atomic_t *runs;
	int queued[W26E_BURST];
	bool in_hardirq;
	struct completion done;
};

static struct w26e_burst *w26e_burst_now;

static void w26e_burst_handler(void *data)
{
	atomic_inc(&w26e_burst_now->runs[(long)data]);
}

static enum hrtimer_restart w26e_burst_fn(struct hrtimer *t)
{
	struct w26e_burst *b = container_of(t, struct w26e_burst, hrt);
	long i;

	b->in_hardirq = in_hardirq();
	for (i = 0; i < W26E_BURST; i++) {
		INIT_WORK(&b->items[i], w26e_burst_handler, (void *)i);
		b->queued[i] = queue_work(b->wq, &b->items[i]);
	}
	complete(&b->done);
	return HRTIMER_NORESTART;
}

static void w26_hardirq_burst_never_lost(struct kunit *test)
{
	struct w26e_burst *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	int i, ran = 0, refused = 0;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->items = kunit_kzalloc(test, W26E_BURST * sizeof(*b->items),
				 GFP_KERNEL);
	b->runs = kunit_kzalloc(test, W26E_BURST * sizeof(*b->runs),
				GFP_KERNEL);
	b->wq = create_workqueue("w26e");
	KUNIT_ASSERT_NOT_NULL(test, b->items);
	KUNIT_ASSERT_NOT_NULL(test, b->runs);
	KUNIT_ASSERT_NOT_NULL(test, b->wq);
	init_completion(&b->done);
	w26e_burst_now = b;
	hrtimer_init(&b->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	b->hrt.function = w26e_burst_fn;
	hrtimer_start(&b->hrt, ns_to_ktime(NSEC_PER_MSEC),
		      HRTIMER_MODE_REL_HARD);
	wait_for_completion(&b->done);
	flush_workqueue(b->wq);
	for (i = 0; i < W26E_BURST; i++) {
		if (b->queued[i]) {
			KUNIT_EXPECT_EQ(test, atomic_read(&b->runs[i]), 1);
			ran++;
		} else {
			KUNIT_EXPECT_EQ(test, atomic_read(&b->runs[i]), 0);
			refused++;
		}
	}
	KUNIT_EXPECT_TRUE(test, b->in_hardirq);
	KUNIT_EXPECT_EQ(test, ran, W26E_BURST);
	KUNIT_EXPECT_EQ(test, refused, 0);
	destroy_workqueue(b->wq);
}

/* Items a handler queues, and then flushes its own queue. */
struct w26e_self {
	struct work_struct flusher;
	struct w26e queued[4];
	struct workqueue_struct *wq;	/* NULL: the events queue */
	int ran_at_flush_return;
	struct completion flushed;
};

static void w26e_self_flusher(void *data)
{
	struct w26e_self *s = data;
	int i;

	for (i = 0; i < ARRAY_SIZE(s->queued); i++) {
		if (s->wq)
			queue_work(s->wq, &s->queued[i].work);
		else
			schedule_work(&s->queued[i].work);
	}
	if (s->wq)
		flush_workqueue(s->wq);
	else
		flush_scheduled_work();
	for (i = 0; i < ARRAY_SIZE(s->queued); i++)
		s->ran_at_flush_return += atomic_read(&s->queued[i].runs);
	complete(&s->flushed);
}

static void w26e_self_run(struct kunit *test, struct workqueue_struct *wq)
{
	struct w26e_self *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->wq = wq;
	init_completion(&s->flushed);
	for (i = 0; i < ARRAY_SIZE(s->queued); i++) {
		atomic_set(&s->queued[i].runs, 0);
		init_completion(&s->queued[i].done);
		INIT_WORK(&s->queued[i].work, w26e_handler, &s->queued[i]);
	}
	INIT_WORK(&s->flusher, w26e_self_flusher, s);
	if (wq)
		queue_work(wq, &s->flusher);
	else
		schedule_work(&s->flusher);
	/* A flush that waited for its own caller never completes this. */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&s->flushed,
							    20 * HZ));
	KUNIT_EXPECT_EQ(test, s->ran_at_flush_return, (int)ARRAY_SIZE(s->queued));
}

/*
 * Promise: flush_scheduled_work() and flush_workqueue(q) called from a
 * handler running on that very queue return, after the items queued
 * before the call ran (2.6's flush_cpu_workqueue(): "keventd trying to
 * flush its own queue ... simply run it by hand"), on the events queue, a
 * single-threaded queue and a per-CPU one.
 */
static void w26_flush_own_queue_from_handler(struct kunit *test)
{
	struct workqueue_struct *single = create_singlethread_workqueue("w26e");
	struct workqueue_struct *percpu = create_workqueue("w26e");

	KUNIT_ASSERT_NOT_NULL(test, single);
	KUNIT_ASSERT_NOT_NULL(test, percpu);
	w26e_self_run(test, NULL);
	w26e_self_run(test, single);
	w26e_self_run(test, percpu);
	destroy_workqueue(single);
	destroy_workqueue(percpu);
}

/* A 2.6 handler on the events queue that flushes other queues. */
struct w26e_flush_others {
	struct work_struct work;
	struct workqueue_struct *plain;		/* not WQ_MEM_RECLAIM */
	struct tq_struct task;
	atomic_t task_runs;
	struct completion done;
};

static void w26e_task_fn(void *data)
{
	struct w26e_flush_others *f = data;

	atomic_inc(&f->task_runs);
}

static void w26e_flush_others_fn(void *data)
{
	struct w26e_flush_others *f = data;

	flush_workqueue(f->plain);
	schedule_task(&f->task);
	flush_scheduled_tasks();
	complete(&f->done);
}

/*
 * Promise: a 2.6 handler on the events queue may flush any queue, as on
 * 2.6: the kernel's flush-dependency check (a WQ_MEM_RECLAIM queue must
 * not wait for one that is not) excuses legacy queues, and the events
 * queue is one.  A WARN in the kernel log fails this case's run.
 */
static void w26_events_handler_flushes_any_queue(struct kunit *test)
{
	struct w26e_flush_others *f = kunit_kzalloc(test, sizeof(*f),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->plain = alloc_workqueue("w26e_plain", 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, f->plain);
	init_completion(&f->done);
	INIT_TQUEUE(&f->task, w26e_task_fn, f);
	INIT_WORK(&f->work, w26e_flush_others_fn, f);
	schedule_work(&f->work);
	wait_for_completion(&f->done);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->task_runs), 1);
	destroy_workqueue(f->plain);
}

static struct w26e w26e_static_ctx;

/* 2.6's kernel/sys.c and drivers/s390/cio declared items like this. */
static void w26e_use_function_static(void)
{
	static DECLARE_WORK(fn_static, w26e_handler, &w26e_static_ctx);

	schedule_work(&fn_static);
	flush_scheduled_work();
}

/* Promise: "static DECLARE_WORK(n, f, d);" compiles inside a function. */
static void w26_static_declare_in_function(struct kunit *test)
{
	atomic_set(&w26e_static_ctx.runs, 0);
	init_completion(&w26e_static_ctx.done);
	w26e_use_function_static();
	w26e_use_function_static();
	KUNIT_EXPECT_EQ(test, atomic_read(&w26e_static_ctx.runs), 2);
}

/* A legacy item in a struct delayed_work, queued behind a blocker. */
struct w26e_dw {
	struct delayed_work dw;		/* .work: 3-argument INIT_WORK */
	struct work_struct blocker, after;	/* modern */
	struct completion release, after_ran;
	atomic_t after_runs;
};

static void w26e_blocker_fn(struct work_struct *work)
{
	struct w26e_dw *d = container_of(work, struct w26e_dw, blocker);

	wait_for_completion(&d->release);
}

static void w26e_after_fn(struct work_struct *work)
{
	struct w26e_dw *d = container_of(work, struct w26e_dw, after);

	atomic_inc(&d->after_runs);
	complete(&d->after_ran);
}

/*
 * Promise: queue_delayed_work() of a struct delayed_work whose work a
 * 3-argument INIT_WORK made legacy (a half-converted driver) is a no-op
 * returning 0 while the item is queued, as the kernel's: the item's list
 * entry, which links it to its neighbours on the worklist, is left alone
 * (it was reset, and the queue's next item was lost or the pool crashed).
 */
static void w26_requeue_delayed_while_queued(struct kunit *test)
{
	struct workqueue_struct *wq = create_singlethread_workqueue("w26e_dw");
	struct w26e_dw *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct w26e *e = w26e_new(test);

	KUNIT_ASSERT_NOT_NULL(test, wq);
	KUNIT_ASSERT_NOT_NULL(test, d);
	init_completion(&d->release);
	init_completion(&d->after_ran);
	INIT_DELAYED_WORK(&d->dw, NULL);
	INIT_WORK(&d->dw.work, w26e_handler, e);
	INIT_WORK(&d->blocker, w26e_blocker_fn);
	INIT_WORK(&d->after, w26e_after_fn);
	queue_work(wq, &d->blocker);
	KUNIT_EXPECT_TRUE(test, queue_delayed_work(wq, &d->dw, 0));
	queue_work(wq, &d->after);		/* linked behind the item */
	KUNIT_EXPECT_FALSE(test, queue_delayed_work(wq, &d->dw, 0));
	KUNIT_EXPECT_FALSE(test, schedule_delayed_work(&d->dw, 0));
	complete(&d->release);
	wait_for_completion(&e->done);
	wait_for_completion(&d->after_ran);
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->after_runs), 1);
	destroy_workqueue(wq);
}

/* A handler that re-initialises its own item, then goes on running. */
struct w26e_reinit {
	struct work_struct work;
	struct completion reinit;
	struct completion release;	/* the handler goes on once given */
	struct completion waited;	/* the waiter's flush or cancel returned */
	bool flush;			/* the waiter flushes, else cancels */
	int finished;
	int finished_when_waited;
};

static void w26e_reinit_fn(void *data)
{
	struct w26e_reinit *r = data;

	INIT_WORK(&r->work, w26e_reinit_fn, r);	/* ready for the next queueing */
	complete(&r->reinit);
	wait_for_completion(&r->release);
	WRITE_ONCE(r->finished, 1);
}

static int w26e_reinit_waiter(void *data)
{
	struct w26e_reinit *r = data;

	if (r->flush)
		flush_work(&r->work);
	else
		cancel_work_sync(&r->work);
	WRITE_ONCE(r->finished_when_waited, READ_ONCE(r->finished));
	complete(&r->waited);
	return 0;
}

static void w26e_reinit_wait(struct kunit *test, bool flush)
{
	struct workqueue_struct *wq = create_singlethread_workqueue("w26e_ri");
	struct w26e_reinit *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *waiter;
	unsigned long until;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->reinit);
	init_completion(&r->release);
	init_completion(&r->waited);
	r->flush = flush;
	INIT_WORK(&r->work, w26e_reinit_fn, r);
	complete(&r->release);			/* the first run goes through */
	queue_work(wq, &r->work);		/* binds the item */
	flush_workqueue(wq);
	reinit_completion(&r->reinit);
	reinit_completion(&r->release);
	WRITE_ONCE(r->finished, 0);
	queue_work(wq, &r->work);		/* bound: the inline paths */
	wait_for_completion(&r->reinit);
	/*
	 * The handler holds until the waiter sleeps in its flush or cancel:
	 * one that returned at once would see it unfinished.
	 */
	waiter = kthread_create(w26e_reinit_waiter, r, "w26e_ri_wait");
	KUNIT_ASSERT_FALSE(test, IS_ERR(waiter));
	get_task_struct(waiter);		/* it may end before the poll */
	wake_up_process(waiter);
	until = jiffies + 30 * HZ;
	while (!completion_done(&r->waited) && task_is_running(waiter) &&
	       time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
	put_task_struct(waiter);
	complete(&r->release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->waited, 30 * HZ));
	/* 0: the wait returned while the run went on */
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->finished_when_waited), 1);
	flush_workqueue(wq);
	destroy_workqueue(wq);
}

/*
 * Promise: a handler may re-initialise its own item with INIT_WORK (2.6
 * drivers did before each queueing), and cancel_work_sync() or
 * flush_work() that starts after that still waits for the run: the
 * item's last pool, through which the kernel finds the run, survives
 * INIT_WORK (it was reset, and both returned while the handler ran, on
 * 6.12 with a WARN "work disable count underflowed" too).
 */
static void w26_reinit_in_handler_then_wait(struct kunit *test)
{
	w26e_reinit_wait(test, false);
	w26e_reinit_wait(test, true);
}

/*
 * Promise: a struct copy of a bound item runs the original's handler with
 * the original's data (2.6 copied func and data with the struct), also
 * when the copy lands where an earlier item lived and that item's record
 * is still bound to the address.
 */
static void w26_struct_copy_over_old_item(struct kunit *test)
{
	struct workqueue_struct *wq = create_singlethread_workqueue("w26e");
	struct w26e *orig = w26e_new(test), *old = w26e_new(test);
	struct work_struct *slot;

	KUNIT_ASSERT_NOT_NULL(test, wq);
	slot = kunit_kzalloc(test, sizeof(*slot), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	/* An earlier item at @slot, queued: its record is bound there. */
	INIT_WORK(slot, w26e_handler, old);
	KUNIT_ASSERT_TRUE(test, queue_work(wq, slot));
	INIT_WORK(&orig->work, w26e_handler, orig);
	KUNIT_ASSERT_TRUE(test, queue_work(wq, &orig->work));
	flush_workqueue(wq);

	*slot = orig->work;		/* the copy, over the earlier item */
	KUNIT_EXPECT_TRUE(test, queue_work(wq, slot));
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&orig->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&old->runs), 1);
	/* And the original is still itself. */
	KUNIT_EXPECT_TRUE(test, queue_work(wq, &orig->work));
	flush_workqueue(wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&orig->runs), 3);
	destroy_workqueue(wq);
}

/* A flusher on a single-threaded queue runs a victim by hand. */
struct w26e_hand {
	struct work_struct flusher, victim;
	struct workqueue_struct *wq;
	struct completion victim_started, victim_release;
	struct completion cancel_returned, flusher_done;
	atomic_t victim_done;
	int done_at_cancel;
};

static void w26e_hand_flusher_fn(void *data)
{
	struct w26e_hand *h = data;

	queue_work(h->wq, &h->victim);
	flush_workqueue(h->wq);		/* runs the victim here, by hand */
	complete(&h->flusher_done);
}

static void w26e_hand_victim_fn(void *data)
{
	struct w26e_hand *h = data;

	complete(&h->victim_started);
	wait_for_completion(&h->victim_release);
	atomic_inc(&h->victim_done);
}

static int w26e_hand_cancel_fn(void *data)
{
	struct w26e_hand *h = data;

	cancel_work_sync(&h->victim);
	h->done_at_cancel = atomic_read(&h->victim_done);
	complete(&h->cancel_returned);
	return 0;
}

/*
 * Promise: an item that a flush from a handler on its queue runs by hand
 * is running as far as every other call is concerned: work_busy() says
 * so, and cancel_work_sync() (as flush_work() and its module's unload)
 * returns only after that run.  The victim runs inside the flusher's
 * worker, where the kernel sees nothing of it.
 */
static void w26_hand_run_is_visible(struct kunit *test)
{
	struct w26e_hand *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->wq = create_singlethread_workqueue("w26e");
	KUNIT_ASSERT_NOT_NULL(test, h->wq);
	init_completion(&h->victim_started);
	init_completion(&h->victim_release);
	init_completion(&h->cancel_returned);
	init_completion(&h->flusher_done);
	INIT_WORK(&h->flusher, w26e_hand_flusher_fn, h);
	INIT_WORK(&h->victim, w26e_hand_victim_fn, h);
	queue_work(h->wq, &h->flusher);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&h->victim_started,
							    20 * HZ));

	KUNIT_EXPECT_TRUE(test, work_busy(&h->victim) & WORK_BUSY_RUNNING);
	t = kthread_run(w26e_hand_cancel_fn, h, "w26e_cancel");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* A bound on a wait that must not end: the victim is still running. */
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&h->cancel_returned,
							     HZ));
	complete(&h->victim_release);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&h->cancel_returned,
							    20 * HZ));
	KUNIT_EXPECT_EQ(test, h->done_at_cancel, 1);
	wait_for_completion(&h->flusher_done);
	destroy_workqueue(h->wq);
}

/* A handler on a per-CPU queue flushes it while another CPU runs an item. */
struct w26e_other {
	struct work_struct a, b;
	struct workqueue_struct *wq;
	struct completion b_started, a_flushing, a_done;
	atomic_t b_done;
	int b_done_at_flush;
};

static void w26e_other_b_fn(void *data)
{
	struct w26e_other *o = data;

	complete(&o->b_started);
	wait_for_completion(&o->a_flushing);
	msleep(100);		/* only widens the window the flush must cover */
	atomic_inc(&o->b_done);
}

static void w26e_other_a_fn(void *data)
{
	struct w26e_other *o = data;

	wait_for_completion(&o->b_started);
	complete(&o->a_flushing);
	flush_workqueue(o->wq);
	o->b_done_at_flush = atomic_read(&o->b_done);
	complete(&o->a_done);
}

/*
 * Promise: flush_workqueue(q) from a handler on q waits for the legacy
 * items that other workers of q are running, and does it without a wait
 * that lockdep sees as recursive (the kernel's flush_work() of an item of
 * the queue the caller runs on): lockdep stays quiet (wqcompat_quiet.h;
 * on a kernel without lockdep, the functional part).
 */
static void w26_flush_own_queue_waits_for_others(struct kunit *test)
{
	struct w26e_other *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	struct wqt_quiet q = wqt_quiet_now();
	int cpu_a, cpu_b, cpus[2];

	KUNIT_ASSERT_NOT_NULL(test, o);
	if (!w26_two_cpus(cpus))
		kunit_skip(test, "needs two CPUs");
	cpu_b = cpus[0];
	cpu_a = cpus[1];
	o->wq = create_workqueue("w26e");
	KUNIT_ASSERT_NOT_NULL(test, o->wq);
	init_completion(&o->b_started);
	init_completion(&o->a_flushing);
	init_completion(&o->a_done);
	INIT_WORK(&o->a, w26e_other_a_fn, o);
	INIT_WORK(&o->b, w26e_other_b_fn, o);
	queue_work_on(cpu_b, o->wq, &o->b);
	queue_work_on(cpu_a, o->wq, &o->a);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&o->a_done, 20 * HZ));
	KUNIT_EXPECT_EQ(test, o->b_done_at_flush, 1);
	destroy_workqueue(o->wq);
	WQT_EXPECT_QUIET(test, q);
}

/* A handler on one CPU flushes a per-CPU queue; an item waits on another. */
struct w26e_cpu {
	struct work_struct gate, flusher, item;
	struct workqueue_struct *wq;
	int item_cpu, ran_on, done_at_flush;
	atomic_t item_done;
	struct completion gate_started, item_ran, flushed;
};

static void w26e_cpu_gate_fn(void *data)
{
	struct w26e_cpu *c = data;

	complete(&c->gate_started);
	/* A bound on a wait that must not end: the item is behind us. */
	wait_for_completion_timeout(&c->item_ran, HZ);
}

static void w26e_cpu_item_fn(void *data)
{
	struct w26e_cpu *c = data;

	c->ran_on = raw_smp_processor_id();
	atomic_inc(&c->item_done);
	complete(&c->item_ran);
}

static void w26e_cpu_flusher_fn(void *data)
{
	struct w26e_cpu *c = data;

	queue_work_on(c->item_cpu, c->wq, &c->item);
	flush_workqueue(c->wq);
	c->done_at_flush = atomic_read(&c->item_done);
	complete(&c->flushed);
}

/*
 * Promise: flush_workqueue(q) from a handler on q runs by hand only the
 * items queued on its own CPU's queue; an item queued on another CPU's
 * (queue_work_on(), schedule_delayed_work_on(): oprofile's per-CPU work)
 * runs there, and the flush waits for it, as 2.6's flush_workqueue()
 * waited for the other CPUs' queues.
 */
static void w26_flush_own_queue_leaves_other_cpus_items(struct kunit *test)
{
	struct w26e_cpu *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int flusher_cpu, cpus[2];

	KUNIT_ASSERT_NOT_NULL(test, c);
	if (!w26_two_cpus(cpus))
		kunit_skip(test, "needs two CPUs");
	c->item_cpu = cpus[0];
	flusher_cpu = cpus[1];
	c->ran_on = -1;
	c->wq = create_workqueue("w26e_cpu");	/* one active item per CPU */
	KUNIT_ASSERT_NOT_NULL(test, c->wq);
	init_completion(&c->gate_started);
	init_completion(&c->item_ran);
	init_completion(&c->flushed);
	INIT_WORK(&c->gate, w26e_cpu_gate_fn, c);
	INIT_WORK(&c->flusher, w26e_cpu_flusher_fn, c);
	INIT_WORK(&c->item, w26e_cpu_item_fn, c);
	queue_work_on(c->item_cpu, c->wq, &c->gate);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&c->gate_started,
							    20 * HZ));
	queue_work_on(flusher_cpu, c->wq, &c->flusher);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&c->flushed,
							    20 * HZ));
	KUNIT_EXPECT_EQ(test, c->ran_on, c->item_cpu);
	KUNIT_EXPECT_EQ(test, c->done_at_flush, 1);
	destroy_workqueue(c->wq);
}

static atomic_t w26e_each_calls;

static void w26e_each_fn(void *info)
{
	atomic_inc(&w26e_each_calls);
}

static void w26e_each_from_events_fn(void *data)
{
	struct w26e *e = data;

	atomic_set(&e->runs, schedule_on_each_cpu(w26e_each_fn, NULL));
	complete(&e->done);
}

/*
 * Promise: the 2-argument schedule_on_each_cpu() called from a handler on
 * the events queue (2.6 drivers did) calls the function on every online
 * CPU and returns 0, without a wait lockdep sees as recursive (lockdep
 * stays quiet: wqcompat_quiet.h; without lockdep, the functional part).
 */
static void w26_schedule_on_each_cpu_from_events(struct kunit *test)
{
	struct w26e *e = w26e_new(test);
	struct wqt_quiet q = wqt_quiet_now();
	struct work_struct w;

	atomic_set(&w26e_each_calls, 0);
	atomic_set(&e->runs, -1);
	INIT_WORK(&w, w26e_each_from_events_fn, e);
	schedule_work(&w);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&e->done, 20 * HZ));
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&e->runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w26e_each_calls), (int)num_online_cpus());
	WQT_EXPECT_QUIET(test, q);
}

/* An item pending on a private queue that schedule_work() refuses. */
struct w26e_refused {
	struct work_struct gate;
	struct work_struct item;
	struct completion gate_open;
	struct completion flushed;
	struct workqueue_struct *wq;
	atomic_t runs;
	int keventd;			/* current_is_keventd() in its run */
};

static void w26e_gate_fn(void *data)
{
	struct w26e_refused *r = data;

	wait_for_completion(&r->gate_open);
}

static void w26e_refused_fn(void *data)
{
	struct w26e_refused *r = data;

	atomic_inc(&r->runs);
	r->keventd |= current_is_keventd();
	flush_workqueue(r->wq);		/* its own queue: 2.6 ran it by hand */
	complete(&r->flushed);
}

/*
 * Promise: a queueing that returns 0 changes nothing.  2.6's queue_work()
 * touched an item only when it set its pending bit: an item pending on a
 * private queue that schedule_work() refused still runs as that queue's,
 * and its handler's flush of that queue is a flush of its own queue, not
 * a wait for itself.
 */
static void w26_refused_queueing_changes_nothing(struct kunit *test)
{
	struct w26e_refused *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->wq = create_singlethread_workqueue("w26e_refused");
	KUNIT_ASSERT_NOT_NULL(test, r->wq);
	init_completion(&r->gate_open);
	init_completion(&r->flushed);
	INIT_WORK(&r->gate, w26e_gate_fn, r);
	INIT_WORK(&r->item, w26e_refused_fn, r);
	queue_work(r->wq, &r->gate);		/* holds the queue's one worker */
	KUNIT_EXPECT_EQ(test, queue_work(r->wq, &r->item), 1);
	KUNIT_EXPECT_EQ(test, schedule_work(&r->item), 0);
	KUNIT_EXPECT_EQ(test, schedule_delayed_work(&r->item, 1), 0);
	complete(&r->gate_open);
	/* A flush that waited for its own caller never completes this. */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->flushed,
							    20 * HZ));
	/*
	 * Nothing else of the refused queueings: no timer armed (a cancel
	 * would take it off and say so), nothing on the events queue, and the
	 * one run was the private queue's.
	 */
	KUNIT_EXPECT_EQ(test, cancel_delayed_work(&r->item), 0);
	flush_scheduled_work();
	destroy_workqueue(r->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->runs), 1);
	KUNIT_EXPECT_EQ(test, r->keventd, 0);
}

/* Where a handler ran: current_is_keventd() there. */
struct w26e_where {
	struct work_struct work;
	int keventd;
	struct completion done;
};

static void w26e_where_fn(void *data)
{
	struct w26e_where *w = data;

	w->keventd = current_is_keventd();
	complete(&w->done);
}

/*
 * Promise: 2.6's keventd_up() and current_is_keventd(), which 6.x lacks:
 * keventd is up, and a handler queued with schedule_work() runs in it; a
 * handler on a private queue and a plain caller do not.
 */
static void w26_current_is_keventd_in_events(struct kunit *test)
{
	struct w26e_where *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct workqueue_struct *wq = create_singlethread_workqueue("w26e_where");

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, wq);
	KUNIT_EXPECT_EQ(test, keventd_up(), 1);
	KUNIT_EXPECT_EQ(test, current_is_keventd(), 0);
	INIT_WORK(&w->work, w26e_where_fn, w);
	init_completion(&w->done);
	w->keventd = -1;
	schedule_work(&w->work);
	wait_for_completion(&w->done);
	KUNIT_EXPECT_EQ(test, w->keventd, 1);
	reinit_completion(&w->done);
	w->keventd = -1;
	queue_work(wq, &w->work);
	wait_for_completion(&w->done);
	KUNIT_EXPECT_EQ(test, w->keventd, 0);
	flush_workqueue(wq);
	destroy_workqueue(wq);
}

/* current_is_keventd() where 2.6 answered for keventd's thread too. */
struct w26e_keventd_irq {
	struct work_struct legacy, modern;
	struct hrtimer hrt;
	int in_irq, modern_answer;
	bool fired;
	struct completion done;
};

static enum hrtimer_restart w26e_keventd_irq_fn(struct hrtimer *t)
{
	struct w26e_keventd_irq *k =
		container_of(t, struct w26e_keventd_irq, hrt);

	k->in_irq = in_hardirq() ? current_is_keventd() : -1;
	WRITE_ONCE(k->fired, true);
	return HRTIMER_NORESTART;
}

static void w26e_keventd_irq_handler(void *data)
{
	struct w26e_keventd_irq *k = data;

	/*
	 * An interrupt on this CPU, while this events handler runs: with
	 * preemption off, or a preemptible kernel may run another task here
	 * when the timer fires, and the interrupt answers for that one.
	 */
	preempt_disable();
	hrtimer_start(&k->hrt, ns_to_ktime(NSEC_PER_MSEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!READ_ONCE(k->fired))
		cpu_relax();
	preempt_enable();
	complete(&k->done);
}

static void w26e_keventd_modern_fn(struct work_struct *work)
{
	struct w26e_keventd_irq *k =
		container_of(work, struct w26e_keventd_irq, modern);

	k->modern_answer = current_is_keventd();
	complete(&k->done);
}

/*
 * N14: 2.6's current_is_keventd() answered for keventd's thread, whatever
 * it ran: 1 in a hard IRQ that interrupted an events handler, and 1 for
 * any item on the events queue, a modern one (2-argument INIT_WORK) too.
 */
static void w26_n14_current_is_keventd_in_irq_and_modern_items(struct kunit *test)
{
	struct w26e_keventd_irq *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	init_completion(&k->done);
	hrtimer_init(&k->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	k->hrt.function = w26e_keventd_irq_fn;
	INIT_WORK(&k->legacy, w26e_keventd_irq_handler, k);
	schedule_work(&k->legacy);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&k->done, 20 * HZ));
	KUNIT_EXPECT_EQ(test, k->in_irq, 1);
	reinit_completion(&k->done);
	k->modern_answer = -1;
	INIT_WORK(&k->modern, w26e_keventd_modern_fn);
	(queue_work)(wqcompat_events_wq, &k->modern);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&k->done, 20 * HZ));
	KUNIT_EXPECT_EQ(test, k->modern_answer, 1);
	flush_scheduled_work();
}

static struct kunit_case w26e_cases[] = {
	KUNIT_CASE(w26_hardirq_burst_never_lost),	/* first: a fresh pool */
	KUNIT_CASE(w26_void_star_is_legacy),
	KUNIT_CASE(w26_rearm_during_destroy),
	KUNIT_CASE(w26_many_items_all_run),
	KUNIT_CASE(w26_items_gone_give_records_back),
	KUNIT_CASE(w26_on_stack_item),
	KUNIT_CASE(w26_c3_onstack_declare_work_queued_by_another_task),
	KUNIT_CASE(w26_flush_own_queue_from_handler),
	KUNIT_CASE(w26_events_handler_flushes_any_queue),
	KUNIT_CASE(w26_static_declare_in_function),
	KUNIT_CASE(w26_requeue_delayed_while_queued),
	KUNIT_CASE(w26_reinit_in_handler_then_wait),
	KUNIT_CASE(w26_struct_copy_over_old_item),
	KUNIT_CASE(w26_hand_run_is_visible),
	KUNIT_CASE(w26_flush_own_queue_waits_for_others),
	KUNIT_CASE(w26_flush_own_queue_leaves_other_cpus_items),
	KUNIT_CASE(w26_schedule_on_each_cpu_from_events),
	KUNIT_CASE(w26_refused_queueing_changes_nothing),
	KUNIT_CASE(w26_current_is_keventd_in_events),
	KUNIT_CASE(w26_n14_current_is_keventd_in_irq_and_modern_items),
	{}
};

static struct kunit_suite w26e_suite = {
	.name = "wqcompat_work26_edge",
	.test_cases = w26e_cases,
};

kunit_test_suites(&w26e_suite);

MODULE_DESCRIPTION("KUnit suite for wqcompat's 2.6 workqueue API: the idioms at its edges");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the races of the 2.6 layer that need a window widened to
 * be seen: run against wqcompat.ko built with its test-only delay points
 * (scripts/kbuild --hooks; tests/kunit/work26/runs: @hooks).  On a shim
 * without them every case is skipped.
 *
 * A case holds the shim at a delay point, waits until the point's hit
 * count (test_delay_hits) says the shim is there, a state and not a time,
 * then acts inside the window.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_cpus.h"
#include "wqcompat_w26_params.h"

#define W26R_HOLD_US 2000000

/* The shim's delay points and hit counts (its test build: compat/hooks.c). */
#include "wqcompat_hooks.h"
static int (*w26r_hits)(unsigned int point);

/* Wait until delay point @point is reached more than @before times. */
static bool w26r_wait_hit(unsigned int point, long before)
{
	unsigned long until = jiffies + 30 * HZ;

	while (w26r_hits(point) <= before) {
		if (time_after(jiffies, until))
			return false;
		schedule_timeout_uninterruptible(1);
	}
	return true;
}

/*
 * Hold the shim at delay point @name (enum @point) for W26R_HOLD_US.  This
 * suite runs with the shim's test build (tests/kunit/work26/runs: @hooks):
 * a shim without delay points, or a write that fails, fails the case.
 */
static long w26r_hold(struct kunit *test, const char *name, unsigned int point)
{
	char delays[64];

	KUNIT_ASSERT_NOT_NULL(test, w26r_hits);	/* a shim with delay points */
	KUNIT_ASSERT_EQ(test, w26_param_write("test_delay", "off"), 0);
	snprintf(delays, sizeof(delays), "%s=%u", name, W26R_HOLD_US);
	KUNIT_ASSERT_EQ(test, w26_param_write("test_delay", delays), 0);
	return w26r_hits(point);
}

struct w26r_item {
	struct work_struct work;
	atomic_t runs;
	struct completion ran;
	struct workqueue_struct *wq;
	struct completion returned;
	int ret;
};

static struct w26r_item *w26r_new(struct kunit *test)
{
	struct w26r_item *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, it);
	init_completion(&it->ran);
	init_completion(&it->returned);
	it->wq = create_singlethread_workqueue("w26r");
	KUNIT_ASSERT_NOT_NULL(test, it->wq);
	return it;
}

static void w26r_legacy_handler(void *data)
{
	struct w26r_item *it = data;

	atomic_inc(&it->runs);
	complete(&it->ran);
}

static int w26r_reclaim_fn(void *arg)
{
	struct w26r_item *it = arg;

	it->ret = w26_param_write("work26_reclaim", "1");
	complete(&it->returned);
	return 0;
}

/*
 * Promise: INIT_WORK() then queue_work() queues, whatever a reclaim pass
 * running at the same time decides.  The item's memory looks gone to the
 * pass (freed), and is the item again before the pass takes its lock
 * (allocated at the same address with its old bytes, so INIT_WORK finds
 * the record through them): the pass must not release that record, or
 * the next queue_work() finds the item's handler unknown and returns 0.
 */
static void w26_reclaim_spares_item_initialised_in_window(struct kunit *test)
{
	struct w26r_item *it = w26r_new(test);
	struct work_struct saved;
	struct task_struct *t;
	long hits;

	/* No record of an earlier item may be found gone before this one. */
	KUNIT_ASSERT_EQ(test, w26_param_write("work26_reclaim", "1"), 0);

	INIT_WORK(&it->work, w26r_legacy_handler, it);
	KUNIT_ASSERT_TRUE(test, queue_work(it->wq, &it->work));
	flush_workqueue(it->wq);
	KUNIT_ASSERT_EQ(test, atomic_read(&it->runs), 1);

	hits = w26r_hold(test, "reclaim_gone", WQCOMPAT_HOOK_RECLAIM_GONE);
	memcpy(&saved, &it->work, sizeof(saved));
	memset(&it->work, 0x5a, sizeof(it->work));	/* freed, reused */
	t = kthread_run(w26r_reclaim_fn, it, "w26r_reclaim");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_RECLAIM_GONE, hits));
	/* Allocated again with its old bytes, and initialised. */
	memcpy(&it->work, &saved, sizeof(saved));
	INIT_WORK(&it->work, w26r_legacy_handler, it);
	wait_for_completion(&it->returned);
	w26_param_write("test_delay", "off");
	KUNIT_EXPECT_EQ(test, it->ret, 0);

	reinit_completion(&it->ran);
	KUNIT_EXPECT_TRUE(test, queue_work(it->wq, &it->work));
	flush_workqueue(it->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 2);
	destroy_workqueue(it->wq);
}

static void w26r_modern_handler(struct work_struct *work)
{
	struct w26r_item *it = container_of(work, struct w26r_item, work);

	atomic_inc(&it->runs);
	complete(&it->ran);
}

static int w26r_plain_fn(void *arg)
{
	struct w26r_item *it = arg;

	it->ret = queue_delayed_work(it->wq, &it->work, 1);
	complete(&it->returned);
	return 0;
}

/*
 * Promise: a 2.6 queue_delayed_work() of a modern item (2-argument
 * INIT_WORK, half-converted code) that returned nonzero runs the handler,
 * even if a reclaim pass runs between the moment the call has its record
 * and the moment it arms the record's timer.  The record looks idle then
 * (no timer yet); released, the timer would fire into a free record and
 * the item would stay pending forever.
 */
static void w26_reclaim_spares_plain_timer_being_armed(struct kunit *test)
{
	struct w26r_item *it = w26r_new(test);
	struct task_struct *t;
	bool ran;
	long hits;

	INIT_WORK(&it->work, w26r_modern_handler);

	hits = w26r_hold(test, "plain_taken", WQCOMPAT_HOOK_PLAIN_TAKEN);
	t = kthread_run(w26r_plain_fn, it, "w26r_plain");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_PLAIN_TAKEN, hits));
	KUNIT_EXPECT_EQ(test, w26_param_write("work26_reclaim", "1"), 0);
	wait_for_completion(&it->returned);
	w26_param_write("test_delay", "off");
	KUNIT_EXPECT_EQ(test, it->ret, 1);

	ran = wait_for_completion_timeout(&it->ran, 30 * HZ);
	KUNIT_EXPECT_TRUE(test, ran);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	if (!ran)	/* let the queue be destroyed: nothing holds the bit */
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&it->work));
	destroy_workqueue(it->wq);
}

/* An item that a flush runs by hand, and that queues itself again. */
struct w26r_hand {
	struct workqueue_struct *wq;	/* many active items per CPU */
	struct work_struct flusher, item;
	struct task_struct *flusher_task;
	bool by_hand;
	atomic_t inside, most_inside, runs;
	long hits;
	struct completion flushed, second_done;
};

static void w26r_hand_item_fn(void *data)
{
	struct w26r_hand *h = data;
	int in = atomic_inc_return(&h->inside);
	int run = atomic_inc_return(&h->runs);
	unsigned long until = jiffies + 30 * HZ;

	if (in > atomic_read(&h->most_inside))
		atomic_set(&h->most_inside, in);
	if (run == 1 && current == READ_ONCE(h->flusher_task)) {
		h->by_hand = true;
		queue_work(h->wq, &h->item);
		/*
		 * This run sleeps: the pool wakes another worker, which takes
		 * the item.  It must wait for this run (the shim reaches its
		 * wait point), not run beside it.
		 */
		while (w26r_hits(WQCOMPAT_HOOK_HAND_WAIT) <= h->hits &&
		       atomic_read(&h->runs) < 2 && time_before(jiffies, until))
			schedule_timeout_uninterruptible(1);
	}
	atomic_dec(&h->inside);
	if (run == 2)
		complete(&h->second_done);
}

static void w26r_hand_flusher_fn(void *data)
{
	struct w26r_hand *h = data;

	WRITE_ONCE(h->flusher_task, current);
	queue_work(h->wq, &h->item);
	flush_workqueue(h->wq);		/* runs the item here, by hand */
	complete(&h->flushed);
}

/*
 * Promise: a legacy item never runs twice at once on one CPU's queue.  A
 * flush from a handler runs an item by hand; the item queues itself again
 * and sleeps.  On a queue of many active items per CPU (alloc_workqueue(),
 * in half-converted code; 2.6's own queues and the events queue run one
 * at a time, where no worker can take it at all) another worker takes the
 * new queueing, and must wait until the run by hand is over (2.6 had one
 * thread per CPU: the second run came after the first).  Another worker
 * may take the item before the flush does (the flusher counts as not
 * running once the kernel finds it CPU-intensive): then the case tries
 * again, and fails if that happened every time.
 */
static void w26_hand_run_never_beside_a_worker_run(struct kunit *test)
{
	struct w26r_hand *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	int attempt;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, w26r_hits);
	h->wq = alloc_workqueue("w26r", 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, h->wq);
	for (attempt = 0; attempt < 10 && !h->by_hand; attempt++) {
		atomic_set(&h->inside, 0);
		atomic_set(&h->most_inside, 0);
		atomic_set(&h->runs, 0);
		h->flusher_task = NULL;
		h->hits = w26r_hits(WQCOMPAT_HOOK_HAND_WAIT);
		KUNIT_ASSERT_GE(test, h->hits, 0);
		init_completion(&h->flushed);
		init_completion(&h->second_done);
		INIT_WORK(&h->flusher, w26r_hand_flusher_fn, h);
		INIT_WORK(&h->item, w26r_hand_item_fn, h);
		queue_work(h->wq, &h->flusher);
		KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&h->flushed,
								    60 * HZ));
		flush_workqueue(h->wq);
	}
	KUNIT_ASSERT_TRUE(test, h->by_hand);	/* once in 10 tries */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&h->second_done,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, atomic_read(&h->most_inside), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->runs), 2);
	KUNIT_EXPECT_GT(test, w26r_hits(WQCOMPAT_HOOK_HAND_WAIT), h->hits);
	kunit_info(test, "run by hand at try %d", attempt);
	destroy_workqueue(h->wq);
}

/* N8: an item of the flusher's own queue that another worker begins. */
struct w26r_n8 {
	struct workqueue_struct *wq;	/* many active items per CPU */
	struct work_struct flusher, item;
	struct task_struct *flusher_task;
	atomic_t item_runs;
	bool item_by_hand, item_done_at_return;
	struct completion item_in, item_go, flushed;
};

static void w26r_n8_item_fn(void *data)
{
	struct w26r_n8 *n = data;

	n->item_by_hand = current == READ_ONCE(n->flusher_task);
	complete(&n->item_in);
	if (!n->item_by_hand)
		wait_for_completion_timeout(&n->item_go, 60 * HZ);
	atomic_inc(&n->item_runs);
}

static void w26r_n8_flusher_fn(void *data)
{
	struct w26r_n8 *n = data;

	WRITE_ONCE(n->flusher_task, current);
	/* behind this run, on this CPU's queue: it cannot begin yet */
	queue_work_on(smp_processor_id(), n->wq, &n->item);
	flush_workqueue(n->wq);
	n->item_done_at_return = atomic_read(&n->item_runs) == 1;
	complete(&n->flushed);
}

/*
 * N8: a flush from a handler on a queue of many active items per CPU
 * (alloc_workqueue(), in half-converted code).  The item it queued behind
 * itself is noted; the flush is held at its delay point after the
 * snapshot, asleep, so the pool wakes another worker, which begins the
 * item (and holds it).  The flush must not return before that run ends:
 * 2.6's flush waited for every item queued before it.  The case waits
 * past the hold for a wrong early return before it lets the item end; the
 * verdict does not depend on how long.
 *
 * One try: true when the window was hit (the item began after the
 * flush's snapshot), after the case's checks; false when a worker began
 * the item before it (the flusher slept before its snapshot: an
 * allocation, on a loaded debug kernel), after the flush still waited.
 * The case fails when five tries never hit the window.
 */
static bool w26r_n8_try(struct kunit *test)
{
	struct w26r_n8 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	bool early, hit;
	long hits;

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->wq = alloc_workqueue("w26r_n8", 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, n->wq);
	init_completion(&n->item_in);
	init_completion(&n->item_go);
	init_completion(&n->flushed);
	INIT_WORK(&n->flusher, w26r_n8_flusher_fn, n);
	INIT_WORK(&n->item, w26r_n8_item_fn, n);
	hits = w26r_hold(test, "flush_noted", WQCOMPAT_HOOK_FLUSH_NOTED);
	queue_work(n->wq, &n->flusher);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&n->item_in,
							    60 * HZ));
	hit = w26r_hits(WQCOMPAT_HOOK_FLUSH_NOTED) > hits;
	KUNIT_EXPECT_FALSE(test, n->item_by_hand);	/* a worker began it */
	/* a window for a wrong early return: the hold, and 3 s more */
	early = wait_for_completion_timeout(&n->flushed,
					    usecs_to_jiffies(W26R_HOLD_US) +
					    3 * HZ);
	KUNIT_EXPECT_FALSE(test, early);
	complete(&n->item_go);
	if (!early)
		KUNIT_ASSERT_TRUE(test,
				  wait_for_completion_timeout(&n->flushed,
							      60 * HZ));
	KUNIT_EXPECT_TRUE(test, n->item_done_at_return);
	KUNIT_EXPECT_EQ(test, w26_param_write("test_delay", "off"),
			0);
	destroy_workqueue(n->wq);
	return hit;
}

static void w26_n8_flush_waits_for_an_own_item_a_worker_began(struct kunit *test)
{
	int try;

	for (try = 1; try <= 5; try++) {
		if (w26r_n8_try(test)) {
			kunit_info(test, "the item began after the snapshot at try %d", try);
			return;
		}
	}
	KUNIT_FAIL(test, "in 5 tries the item always began before the flush's snapshot");
}

/*
 * N2 on a queue of many active items per CPU (alloc_workqueue(), in
 * half-converted code): X runs, queued again behind itself; F, a handler
 * of the same queue and CPU, flushes it.  Every case below ends with the
 * flush having waited for X's second queueing, queued before F was, and
 * with X never run twice at once.
 */
struct w26r_n2m {
	struct workqueue_struct *wq;
	struct work_struct x, f;
	struct task_struct *f_task;
	int cpu;
	atomic_t inside, most, runs;
	int runs_at_return;
	bool f_waits;		/* F waits for @f_go before it flushes */
	struct completion x_in, x_go, f_in, f_go, flushed;
};

static void w26r_n2m_x(void *data)
{
	struct w26r_n2m *n = data;
	int in = atomic_inc_return(&n->inside);
	int run = atomic_inc_return(&n->runs);

	if (in > atomic_read(&n->most))
		atomic_set(&n->most, in);
	if (run == 1) {
		queue_work_on(n->cpu, n->wq, &n->x);	/* behind itself */
		complete(&n->x_in);
		wait_for_completion_timeout(&n->x_go, 60 * HZ);
	}
	atomic_dec(&n->inside);
}

static void w26r_n2m_f(void *data)
{
	struct w26r_n2m *n = data;

	WRITE_ONCE(n->f_task, current);
	complete(&n->f_in);
	if (n->f_waits)
		wait_for_completion_timeout(&n->f_go, 60 * HZ);
	flush_workqueue(n->wq);
	n->runs_at_return = atomic_read(&n->runs);
	complete(&n->flushed);
}

static struct w26r_n2m *w26r_n2m_new(struct kunit *test)
{
	struct w26r_n2m *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->wq = alloc_workqueue("w26r_n2m", 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, n->wq);
	n->cpu = raw_smp_processor_id();
	init_completion(&n->x_in);
	init_completion(&n->x_go);
	init_completion(&n->f_in);
	init_completion(&n->f_go);
	init_completion(&n->flushed);
	INIT_WORK(&n->x, w26r_n2m_x, n);
	INIT_WORK(&n->f, w26r_n2m_f, n);
	queue_work_on(n->cpu, n->wq, &n->x);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->x_in, 30 * HZ));
	return n;
}

static void w26r_n2m_end(struct kunit *test, struct w26r_n2m *n)
{
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->flushed,
							    60 * HZ));
	KUNIT_EXPECT_EQ(test, w26_param_write("test_delay", "off"),
			0);
	/* the second queueing was before the flush: it had run */
	KUNIT_EXPECT_GE(test, n->runs_at_return, 2);
	destroy_workqueue(n->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&n->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&n->most), 1);
}

/*
 * The flush finds X running in a worker and its second queueing behind
 * it; once that run ends, the worker is held before it takes the second
 * queueing up (its delay point after a run).  The flush must then run it
 * or wait for it, not take "still queued on my pool_workqueue" for "runs
 * after me": on this queue another worker is free to run it.
 */
static void w26_n2_many_active_flush_takes_a_queueing_a_finished_run_left(struct kunit *test)
{
	struct w26r_n2m *n = w26r_n2m_new(test);
	unsigned long until = jiffies + 30 * HZ;
	long hits;

	queue_work_on(n->cpu, n->wq, &n->f);
	/* F is in its flush, asleep: it waits for X's run */
	while ((!READ_ONCE(n->f_task) || task_is_running(n->f_task)) &&
	       time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
	KUNIT_EXPECT_NOT_NULL(test, READ_ONCE(n->f_task));
	hits = w26r_hold(test, "run_ended", WQCOMPAT_HOOK_RUN_ENDED);
	complete(&n->x_go);
	KUNIT_EXPECT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_RUN_ENDED, hits));
	w26r_n2m_end(test, n);
}

/*
 * The worker took X's second queueing up and is held before its run is
 * counted (its delay point at a run's beginning) when F, running beside
 * X's first run, flushes: that queueing was before the flush, and the
 * kernel's worker runs it.  The flush must wait for that run.
 */
static void w26_n2_many_active_flush_waits_for_a_run_not_yet_counted(struct kunit *test)
{
	struct w26r_n2m *n = w26r_n2m_new(test);
	long hits;

	n->f_waits = true;
	queue_work_on(n->cpu, n->wq, &n->f);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->f_in, 30 * HZ));
	hits = w26r_hold(test, "run_begin", WQCOMPAT_HOOK_RUN_BEGIN);
	complete(&n->x_go);
	KUNIT_ASSERT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_RUN_BEGIN, hits));
	complete(&n->f_go);
	w26r_n2m_end(test, n);
}

/*
 * A run by hand and a worker that got the same item: F flushes its own
 * queue from its handler and runs X, queued behind it, by hand; X queues
 * itself on the same queue's other CPU, whose worker takes it up and
 * waits for the run by hand to end (one queue: never beside it; its delay
 * point hand_wait is counted); then X, still in the run by hand, flushes
 * F's queue again.  That nested flush must not wait for the other
 * worker's run of X, which waits for it.
 */
struct w26r_nest {
	struct workqueue_struct *wq;
	struct work_struct f, x;
	int cpus[2];
	atomic_t x_runs;
	bool queued, worker_waited;
	struct completion done;
};

static void w26r_nest_x(void *data)
{
	struct w26r_nest *n = data;
	unsigned long until = jiffies + 20 * HZ;
	long hits;

	if (atomic_inc_return(&n->x_runs) != 1)
		return;
	hits = w26r_hits(WQCOMPAT_HOOK_HAND_WAIT);
	n->queued = queue_work_on(n->cpus[1], n->wq, &n->x);
	while (w26r_hits(WQCOMPAT_HOOK_HAND_WAIT) <= hits &&
	       time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
	n->worker_waited = w26r_hits(WQCOMPAT_HOOK_HAND_WAIT) > hits;
	flush_workqueue(n->wq);
}

static void w26r_nest_f(void *data)
{
	struct w26r_nest *n = data;

	queue_work_on(n->cpus[0], n->wq, &n->x);	/* behind this run */
	flush_workqueue(n->wq);
	complete(&n->done);
}

static void w26_hand_run_flush_never_waits_for_a_worker_waiting_on_it(struct kunit *test)
{
	struct w26r_nest *n = kzalloc(sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w26r_hits);	/* a shim with delay points */
	KUNIT_ASSERT_NOT_NULL(test, n);
	if (!w26_two_cpus(n->cpus)) {
		kfree(n);
		kunit_skip(test, "needs two CPUs");
	}
	n->wq = create_workqueue("w26r_nest");
	KUNIT_ASSERT_NOT_NULL(test, n->wq);
	init_completion(&n->done);
	INIT_WORK(&n->f, w26r_nest_f, n);
	INIT_WORK(&n->x, w26r_nest_x, n);
	queue_work_on(n->cpus[0], n->wq, &n->f);
	/* a deadlock on a broken shim: nothing can be freed then */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->done, 30 * HZ));
	flush_workqueue(n->wq);
	KUNIT_EXPECT_TRUE(test, n->queued);
	KUNIT_EXPECT_TRUE(test, n->worker_waited);
	KUNIT_EXPECT_EQ(test, atomic_read(&n->x_runs), 2);
	destroy_workqueue(n->wq);
	kfree(n);
}

/*
 * X, a handler of a per-CPU queue, flushes the events queue; once the
 * flush has looked for items waiting there behind runs of themselves, and
 * before it waits (its delay point flush_scanned), another task queues X
 * on the events queue of X's CPU: that queueing waits in the pool behind
 * X's run.  The flush must still run it (2.6: keventd ran it beside) and
 * return, not wait for it.
 */
struct w26r_late {
	struct workqueue_struct *wq;
	struct work_struct x;
	int cpu;
	atomic_t runs;
	int runs_at_return;
	struct completion returned;
};

static void w26r_late_x(void *data)
{
	struct w26r_late *l = data;

	if (atomic_inc_return(&l->runs) != 1)
		return;
	flush_scheduled_work();
	l->runs_at_return = atomic_read(&l->runs);
	complete(&l->returned);
}

static void w26_flush_runs_an_own_queueing_made_after_it_looked(struct kunit *test)
{
	struct w26r_late *l = kzalloc(sizeof(*l), GFP_KERNEL);
	long hits;

	KUNIT_ASSERT_NOT_NULL(test, l);
	l->wq = create_workqueue("w26r_late");
	KUNIT_ASSERT_NOT_NULL(test, l->wq);
	l->cpu = raw_smp_processor_id();
	init_completion(&l->returned);
	INIT_WORK(&l->x, w26r_late_x, l);
	hits = w26r_hold(test, "flush_scanned", WQCOMPAT_HOOK_FLUSH_SCANNED);
	KUNIT_ASSERT_TRUE(test, queue_work_on(l->cpu, l->wq, &l->x));
	KUNIT_ASSERT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_FLUSH_SCANNED, hits));
	KUNIT_EXPECT_TRUE(test, schedule_work_on(l->cpu, &l->x));
	/* a deadlock on a broken shim: nothing can be freed then */
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&l->returned,
							    30 * HZ));
	KUNIT_EXPECT_EQ(test, w26_param_write("test_delay", "off"), 0);
	KUNIT_EXPECT_EQ(test, l->runs_at_return, 2);
	destroy_workqueue(l->wq);
	flush_scheduled_work();
	KUNIT_EXPECT_EQ(test, atomic_read(&l->runs), 2);
	kfree(l);
}

/*
 * B runs on a single-thread queue and queues itself there again, behind
 * itself; its run has ended and its worker is held before it returns (its
 * delay point run_ended: the kernel still has B's shadow in that worker)
 * when A, an events handler, flushes B's queue.  That queueing waits
 * behind a run on its own queue, as on 2.6: the flush must not take it to
 * run in A's thread (B's handler would then flush its own queue from
 * outside it); B's queue runs it.
 */
struct w26r_same {
	struct workqueue_struct *wq;
	struct work_struct a, b;
	atomic_t b_runs;
	int b2_keventd;
	struct completion b_in, a_done;
};

static void w26r_same_b(void *data)
{
	struct w26r_same *m = data;

	if (atomic_inc_return(&m->b_runs) == 1) {
		queue_work(m->wq, &m->b);
		complete(&m->b_in);
	} else {
		m->b2_keventd = current_is_keventd();
	}
}

static void w26r_same_a(void *data)
{
	struct w26r_same *m = data;

	flush_workqueue(m->wq);
	complete(&m->a_done);
}

static void w26_foreign_flush_leaves_an_item_behind_its_own_queue_s_run(struct kunit *test)
{
	struct w26r_same *m = kzalloc(sizeof(*m), GFP_KERNEL);
	long hits;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->wq = create_singlethread_workqueue("w26r_same");
	KUNIT_ASSERT_NOT_NULL(test, m->wq);
	m->b2_keventd = -1;
	init_completion(&m->b_in);
	init_completion(&m->a_done);
	INIT_WORK(&m->a, w26r_same_a, m);
	INIT_WORK(&m->b, w26r_same_b, m);
	hits = w26r_hold(test, "run_ended", WQCOMPAT_HOOK_RUN_ENDED);
	KUNIT_ASSERT_TRUE(test, queue_work(m->wq, &m->b));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&m->b_in, 30 * HZ));
	KUNIT_ASSERT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_RUN_ENDED, hits));
	KUNIT_ASSERT_TRUE(test, schedule_work(&m->a));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&m->a_done, 30 * HZ));
	KUNIT_EXPECT_EQ(test, w26_param_write("test_delay", "off"), 0);
	flush_workqueue(m->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&m->b_runs), 2);
	KUNIT_EXPECT_EQ(test, m->b2_keventd, 0);	/* on its own queue */
	flush_scheduled_work();
	destroy_workqueue(m->wq);
	kfree(m);
}

/*
 * Items of one lockdep class (one INIT_WORK() site) on two queues: Y runs
 * on Q, then X, on P, flushes Q from its handler.  2.6 had no lockdep;
 * the shim's flush of another queue must not make one up: before, its
 * flush_work() of its own helper, still in its worker (held at its delay
 * point flusher_done), told lockdep that the class waits for a flush of
 * Q, which runs the class (debug kernel: "possible circular locking
 * dependency", a finding of the run).
 */
struct w26r_cls {
	struct work_struct x, y;
	struct workqueue_struct *p, *q;
	atomic_t y_runs;
	struct completion done;
};

static void w26r_cls_init(struct work_struct *w, void (*fn)(void *), void *d)
{
	INIT_WORK(w, fn, d);		/* one site: one lockdep class */
}

static void w26r_cls_y(void *data)
{
	struct w26r_cls *c = data;

	atomic_inc(&c->y_runs);
}

static void w26r_cls_x(void *data)
{
	struct w26r_cls *c = data;

	flush_workqueue(c->q);
	complete(&c->done);
}

static void w26_foreign_flush_adds_no_lockdep_dependency(struct kunit *test)
{
	struct w26r_cls *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	long hits;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->p = create_workqueue("w26r_cls_p");
	KUNIT_ASSERT_NOT_NULL(test, c->p);
	c->q = create_singlethread_workqueue("w26r_cls_q");
	KUNIT_ASSERT_NOT_NULL(test, c->q);
	init_completion(&c->done);
	w26r_cls_init(&c->x, w26r_cls_x, c);
	w26r_cls_init(&c->y, w26r_cls_y, c);
	KUNIT_ASSERT_TRUE(test, queue_work(c->q, &c->y));
	flush_workqueue(c->q);
	hits = w26r_hold(test, "flusher_done", WQCOMPAT_HOOK_FLUSHER_DONE);
	KUNIT_ASSERT_TRUE(test, queue_work(c->p, &c->x));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&c->done, 30 * HZ));
	/* the flusher completes, then reaches its delay point: not yet, maybe */
	KUNIT_EXPECT_TRUE(test, w26r_wait_hit(WQCOMPAT_HOOK_FLUSHER_DONE, hits));
	KUNIT_EXPECT_EQ(test, w26_param_write("test_delay", "off"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->y_runs), 1);
	destroy_workqueue(c->p);
	destroy_workqueue(c->q);
}

/*
 * N10: destroy_workqueue() against a legacy timer that has fired and whose
 * callback (the kernel's delayed_work_timer_fn()) has not yet queued the
 * item.  A kprobe holds that callback in flight; the destroy is held at
 * its delay point meanwhile, so that the timer fires inside it.  The
 * destroy must wait for the callback and let the item run (before the
 * fix it went on to the kernel's destroy, whose drain refused the
 * callback's queueing with a WARN: the item never ran).
 */
#define W26R_N10_HOLD_NS (5 * NSEC_PER_SEC)

struct w26r_n10 {
	struct workqueue_struct *wq;
	struct work_struct item;
	struct timer_list *timer;	/* the item's legacy timer */
	long hits;			/* the destroy's delay point, before */
	atomic_t runs;
	bool held, draining;
	struct completion destroyed;
	struct work_struct destroyer;	/* modern */
};

static struct w26r_n10 *w26r_n10_now;

static void w26r_n10_fn(void *data)
{
	struct w26r_n10 *n = data;

	atomic_inc(&n->runs);
}

/* delayed_work_timer_fn(timer): hold ours while the destroy is held */
static int w26r_n10_timer_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct w26r_n10 *n = READ_ONCE(w26r_n10_now);
	u64 until;

	if (!n || (struct timer_list *)regs_get_kernel_argument(regs, 0) != n->timer ||
	    w26r_hits(WQCOMPAT_HOOK_DESTROY_TIMERS) <= n->hits)
		return 0;
	WRITE_ONCE(n->held, true);
	until = ktime_get_mono_fast_ns() + W26R_N10_HOLD_NS;
	while (!READ_ONCE(n->draining) && ktime_get_mono_fast_ns() < until)
		cpu_relax();
	return 0;
}

/* __flush_workqueue(wq): the kernel's destroy drains ours */
static int w26r_n10_flush_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct w26r_n10 *n = READ_ONCE(w26r_n10_now);

	if (n && (struct workqueue_struct *)regs_get_kernel_argument(regs, 0) ==
		     n->wq)
		WRITE_ONCE(n->draining, true);
	return 0;
}

static struct kprobe w26r_n10_timer_kp = {
	.symbol_name = "delayed_work_timer_fn",
	.pre_handler = w26r_n10_timer_pre,
};

static struct kprobe w26r_n10_flush_kp = {
	.symbol_name = "__flush_workqueue",
	.pre_handler = w26r_n10_flush_pre,
};

static void w26r_n10_destroy_fn(struct work_struct *work)
{
	struct w26r_n10 *n = container_of(work, struct w26r_n10, destroyer);

	destroy_workqueue(n->wq);
	complete(&n->destroyed);
}

static void w26_n10_destroy_waits_for_a_fired_timer(struct kunit *test)
{
	struct w26r_n10 *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct wqcompat_work26_rec *rec;
	int cpus[2];

	KUNIT_ASSERT_NOT_NULL(test, n);
	if (!IS_ENABLED(CONFIG_KPROBES))
		kunit_skip(test, "needs CONFIG_KPROBES");
	if (!w26_two_cpus(cpus))
		kunit_skip(test, "needs two CPUs");
	n->wq = create_workqueue("w26r_n10");
	KUNIT_ASSERT_NOT_NULL(test, n->wq);
	init_completion(&n->destroyed);
	INIT_WORK(&n->item, w26r_n10_fn, n);
	INIT_WORK(&n->destroyer, w26r_n10_destroy_fn);
	/* bound by an early queueing, so that its record (and timer) exist */
	KUNIT_ASSERT_TRUE(test, queue_work(n->wq, &n->item));
	flush_workqueue(n->wq);
	rec = wqcompat_w26_rec_of(&n->item);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	n->timer = &rec->dwork.timer;
	atomic_set(&n->runs, 0);
	KUNIT_ASSERT_EQ(test, register_kprobe(&w26r_n10_timer_kp), 0);
	if (register_kprobe(&w26r_n10_flush_kp)) {
		unregister_kprobe(&w26r_n10_timer_kp);
		KUNIT_FAIL(test, "cannot probe __flush_workqueue");
		return;
	}
	n->hits = w26r_hold(test, "destroy_timers", WQCOMPAT_HOOK_DESTROY_TIMERS);
	WRITE_ONCE(w26r_n10_now, n);
	/*
	 * The timer fires inside the destroy's 2 s hold, on another CPU than
	 * the destroy's (the held callback keeps interrupts off on its CPU).
	 */
	KUNIT_EXPECT_TRUE(test, queue_delayed_work_on(cpus[1], n->wq,
						      &n->item, HZ));
	(queue_work_on)(cpus[0], system_wq, &n->destroyer);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&n->destroyed,
							    60 * HZ));
	WRITE_ONCE(w26r_n10_now, NULL);
	unregister_kprobe(&w26r_n10_flush_kp);
	unregister_kprobe(&w26r_n10_timer_kp);
	KUNIT_EXPECT_EQ(test, w26_param_write("test_delay", "off"),
			0);
	/* the window was hit: the callback ran inside the destroy's hold */
	KUNIT_EXPECT_TRUE(test, READ_ONCE(n->held));
	KUNIT_EXPECT_EQ(test, atomic_read(&n->runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&n->item));
}

static struct kunit_case w26r_cases[] = {
	KUNIT_CASE(w26_reclaim_spares_item_initialised_in_window),
	KUNIT_CASE(w26_reclaim_spares_plain_timer_being_armed),
	KUNIT_CASE(w26_hand_run_never_beside_a_worker_run),
	KUNIT_CASE(w26_n8_flush_waits_for_an_own_item_a_worker_began),
	KUNIT_CASE(w26_n2_many_active_flush_takes_a_queueing_a_finished_run_left),
	KUNIT_CASE(w26_n2_many_active_flush_waits_for_a_run_not_yet_counted),
	KUNIT_CASE(w26_hand_run_flush_never_waits_for_a_worker_waiting_on_it),
	KUNIT_CASE(w26_flush_runs_an_own_queueing_made_after_it_looked),
	KUNIT_CASE(w26_foreign_flush_leaves_an_item_behind_its_own_queue_s_run),
	KUNIT_CASE(w26_foreign_flush_adds_no_lockdep_dependency),
	KUNIT_CASE(w26_n10_destroy_waits_for_a_fired_timer),
	{}
};

static int w26r_init(struct kunit_suite *suite)
{
	w26r_hits = symbol_get(wqcompat_test_hits);
	return 0;
}

static void w26r_exit(struct kunit_suite *suite)
{
	if (w26r_hits)
		symbol_put(wqcompat_test_hits);
}

static struct kunit_suite w26r_suite = {
	.name = "wqcompat_work26_race",
	.suite_init = w26r_init,
	.suite_exit = w26r_exit,
	.test_cases = w26r_cases,
};

kunit_test_suites(&w26r_suite);

MODULE_DESCRIPTION("KUnit suite for wqcompat's 2.6 layer: races, with widened windows");
MODULE_LICENSE("GPL");

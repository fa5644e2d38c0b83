// SPDX-License-Identifier: GPL-2.0
/*
 * flush_workqueue() and flush_scheduled_work() of the 2.6 API, and the
 * case a modern workqueue deadlocks on: a handler that flushes the queue
 * it runs on.
 *
 * Theory
 * ------
 * 2.6.18's flush_workqueue() called flush_cpu_workqueue() for each CPU's
 * queue in turn.  For a queue whose thread was the caller ("keventd trying
 * to flush its own queue"), it ran the queue by hand, nested in the
 * caller, until it was empty; for any other, it sampled the queue's
 * insert_sequence and slept until remove_sequence reached it: it waited
 * for the items inserted before the sample, running ones included, and
 * never for later ones.  Drivers relied on it: close paths reached from a
 * work item flush the scheduled work, then free what the items use.
 *
 * Here a flush from a legacy handler running on @wq (the kernel's own
 * worker->current_pwq says so, work26_run.c) does the same over @wq's
 * pool_workqueues:
 *
 *  1. The snapshot: each legacy item then queued on a pool_workqueue of
 *     @wq (its shadow's data word names it), or running in another worker
 *     of @wq (the run's slot names @wq: its runs on other queues are not
 *     waited for), or by hand in another task from @wq, is noted with its
 *     run counts.  One that a worker took up and has not yet counted as
 *     begun is looked at again once it has (its queue is known then).
 *     Items queued or started later are not.
 *  2. The items queued on the caller's own pool_workqueue run by hand, in
 *     the caller, pass after pass while a pass ran one (bounded), as
 *     2.6's run_workqueue() ran its list until it was empty; so do those
 *     queued on @wq's other pool_workqueues that wait there behind a run
 *     of themselves on another queue (w26_behind_other(): one shadow for all
 *     queues), which may be waiting for the caller.
 *  3. Each noted item is waited for: until the run that was queued or in
 *     progress has ended, or the item was cancelled.  One still queued on
 *     the caller's own pool_workqueue is not (it runs after the caller);
 *     one of it that another worker began meanwhile is.
 *
 * Why a run by hand is safe.  The queues a 2.6 driver has are those of
 * create_workqueue(), create_singlethread_workqueue() and the events queue
 * (work26_queues.c): one active item per pool_workqueue.  While the caller
 * runs, the items queued behind it on its own pool_workqueue are inactive:
 * no worker can start them, so taking one off with the kernel's cancel
 * (w26_hand_take(), under w26_lock, after a check that it is still queued
 * there and that no run of it is in progress) makes this its only run.
 * A flush_workqueue() from outside that began before such an item was
 * queued began before the caller was queued too (a pool_workqueue starts
 * its items in order), so it waits for the caller, and with it for the
 * runs by hand.  On a queue of more active items (alloc_workqueue(), in
 * half-converted code) another worker may start an own item at any moment
 * the caller sleeps, before the pass reaches it or between the check and
 * the cancel: the pass then finds it gone or the cancel fails, and step 3
 * waits for that run (it was noted in step 1), as 2.6's flush would have.
 * An own item queued behind a run of itself in another worker of @wq is
 * not behind the caller either: the pass waits for that run and looks
 * again.
 *
 * A run by hand is not taken inside a run by hand of the same item (2.6
 * recursed there, without bound), and runs by hand nest at most
 * W26_HAND_DEPTH deep in one task.
 *
 * A flush (or destroy) of another queue from a legacy handler waits with
 * the kernel's flush, after it ran by hand the items queued there that
 * wait behind runs of themselves, and the caller's own
 * (w26_run_behind_on()).
 */
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_hooks.h"
#include "work26_rec.h"

#define W26_HAND_PASSES	8	/* passes over the own queue that ran items */
#define W26_HAND_DEPTH	4	/* self-flushes nested in one task */

/* An item the flush waits for (step 1). */
struct w26_noted {
	struct wqcompat_work26_rec *rec;
	void *pwq;		/* queued there; NULL: running */
	void *own;		/* the caller's pool_workqueue */
	int slot;		/* running: the run's slot, or -1: by counts */
	unsigned long ended;	/* the slot's ended count when noted */
	u32 done;		/* its runs finished when noted */
	u32 active;		/* and in progress (the caller's own too) */
	bool ran;		/* step 2 ran it by hand */
};

struct w26_self_flush {
	struct workqueue_struct *wq;
	void *own;		/* the caller's pool_workqueue of @wq */
	struct wqcompat_work26_rec *self;
	struct w26_noted *noted;
	unsigned int nr, max;
	unsigned int ran;	/* items run by hand this pass */
	bool hand;		/* may run items by hand (depth) */
	struct task_struct *task;
	struct list_head node;	/* in w26_self_flushes */
};

/* Self-flushes in progress, for the depth of nesting; under w26_lock. */
static LIST_HEAD(w26_self_flushes);

/*
 * Does a kernel worker have @rec's shadow, in the pool it was last queued
 * on?  Its run may not be counted yet (or any more).  For a queued shadow:
 * it waits in that pool behind that run, since the kernel never runs one
 * work_struct twice at once in a pool, and an item has one shadow for all
 * queues (2.6 ran a queueing on another queue on that queue's thread).
 * Any context; takes the pool's lock.
 */
static bool w26_kernel_runs(struct wqcompat_work26_rec *rec)
{
	return (work_busy)(&rec->dwork.work) & WORK_BUSY_RUNNING;
}

/*
 * The kernel's worker has @rec's shadow, but its run is not counted in
 * @runs: the worker took the item off its queue and has not yet begun the
 * run (w26_shadow_fn()), or ended it and has not yet returned.  Neither
 * sleeps on anything: wait until the count moves or the kernel's worker
 * is done with it.  A beginning wakes us; the rest is looked at every
 * HZ / 10.
 */
static void w26_wait_uncounted(struct wqcompat_work26_rec *rec,
			       unsigned long runs)
{
	atomic_inc(&rec->waiters);
	smp_mb__after_atomic();	/* pairs with w26_worker_run_begin() */
	while (!wait_var_event_timeout(&rec->runs,
				       atomic_long_read(&rec->runs) != runs ||
				       !w26_kernel_runs(rec), HZ / 10))
		;
	atomic_dec(&rec->waiters);
}

/* Step 1 for one record: does the flush wait for it? */
static void w26_note_one(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_self_flush *sf = arg;
	struct w26_noted n;
	struct task_struct *hand;
	unsigned long runs, own;
	bool ours;

	if (rec == sf->self || READ_ONCE(rec->kind) != W26_LEGACY)
		return;
again:
	n = (struct w26_noted){ .rec = rec, .own = sf->own, .slot = -1 };
	rcu_read_lock();	/* the pool_workqueue named stays (kfree_rcu) */
	n.pwq = w26_queued_pwq(rec);
	ours = n.pwq && (n.pwq == sf->own || w26_pwq_wq(n.pwq) == sf->wq);
	rcu_read_unlock();
	if (n.pwq && !ours)
		return;		/* another queue's */
	runs = atomic_long_read(&rec->runs);
	n.done = runs >> 32;
	n.active = runs & W26_RUN_ACTIVE;
	if (!n.pwq) {
		own = w26_own_runs(rec);
		hand = READ_ONCE(rec->hand_task);
		if (n.active <= own) {
			/*
			 * Idle to the count; a worker that has it and has
			 * not counted its run yet may run it for @wq, from
			 * a queueing before this flush: know which first.
			 * Not while the caller runs it by hand: such a
			 * worker waits for that run to end (work26_run.c).
			 */
			if (hand == current || !w26_kernel_runs(rec))
				return;
			w26_wait_uncounted(rec, runs);
			goto again;
		}
		/* a worker's run on @wq: that run alone is waited for */
		n.slot = w26_run_slot_on(rec, sf->wq, &n.ended);
		if (n.slot < 0 && !atomic_read(&rec->run_overflow) &&
		    !(hand && hand != current &&
		      READ_ONCE(rec->hand_wq) == sf->wq))
			return;	/* running, but not on @wq */
	}
	if (sf->nr < sf->max)
		sf->noted[sf->nr++] = n;
}

/*
 * Has the noted run of @n ended, or was the item cancelled?  A queued
 * item cannot begin before the runs in progress when it was noted ended
 * (it is pending until it begins), so once @active + 1 more have ended it
 * has run.
 */
static bool w26_noted_over(struct w26_noted *n)
{
	struct wqcompat_work26_rec *rec = n->rec;
	unsigned long runs = atomic_long_read(&rec->runs);

	if (n->ran)
		return true;
	if (!n->pwq && n->slot >= 0)
		return READ_ONCE(rec->run_slots[n->slot].ended) != n->ended;
	if (!n->pwq)	/* by hand, or runs on more queues than slots */
		return w26_runs_over(rec, n->done, n->active, w26_own_runs(rec));
	if ((u32)((runs >> 32) - n->done) > n->active)
		return true;
	/*
	 * Still queued on the caller's own pool_workqueue after step 2: that
	 * queueing runs after the caller (step 2 stopped, or may not run
	 * items), a run of it in progress when noted is waited for.  Queued
	 * on another of @wq's: it will run.
	 */
	if (w26_queued_pwq(rec) == n->pwq)
		return n->pwq == n->own &&
		       (u32)((runs >> 32) - n->done) >= n->active;
	/* not queued, nor running: cancelled */
	return !w26_runs_active(rec) &&
	       !w26_kernel_runs(rec);
}

/*
 * Step 3 for one noted item.  A run's beginning and end wake us; nothing
 * does when a cancel takes the item off or a worker that got it has not
 * begun, so the condition is also looked at every HZ / 10.  An item the
 * caller itself runs by hand (a flush nested in its run) is not waited
 * for: 2.6's flush of the caller's queue never waited for its own thread.
 */
static void w26_wait_noted(struct w26_noted *n)
{
	struct wqcompat_work26_rec *rec = n->rec;
	unsigned long since = jiffies;
	bool told = false;

	atomic_inc(&rec->waiters);
	smp_mb__after_atomic();	/* pairs with w26_run_end() */
	while (READ_ONCE(rec->hand_task) != current &&
	       !wait_var_event_timeout(&rec->runs, w26_noted_over(n), HZ / 10)) {
		/* its sleeps are short: the hung-task check would not say */
		if (!told && time_after(jiffies, since + 60 * HZ)) {
			told = true;
			pr_warn("wqcompat: flush_workqueue() from a handler has waited 60 s for legacy work %ps (%s)\n",
				READ_ONCE(rec->func),
				n->pwq ? "queued" : "running");
		}
	}
	atomic_dec(&rec->waiters);
}

/*
 * Step 2 ran @rec by hand: the queueing step 1 noted has run, whatever
 * its runs on other queues do meanwhile (its counts would wait for them).
 */
static void w26_noted_ran(struct w26_self_flush *sf,
			  struct wqcompat_work26_rec *rec)
{
	unsigned int i;

	for (i = 0; i < sf->nr; i++)
		if (sf->noted[i].rec == rec && sf->noted[i].pwq)
			sf->noted[i].ran = true;
}

/*
 * Step 2 found an item queued on the own pool_workqueue with a run of it
 * in progress, which it may not run beside.  A run in another worker of
 * @wq (a queue of more active items): wait for it, then let the next pass
 * look at the item again; on this queue a worker is free to take that
 * queueing up, so it is not "behind the caller".  A run on another queue
 * is not waited for (its handler may be flushing this very queue): the
 * queueing runs after the caller, as step 3 says.
 */
static void w26_hand_busy(struct w26_self_flush *sf,
			  struct wqcompat_work26_rec *rec)
{
	struct w26_noted n = { .rec = rec };

	n.slot = w26_run_slot_on(rec, sf->wq, &n.ended);
	if (n.slot < 0)
		return;
	w26_wait_noted(&n);
	sf->ran++;
}

/*
 * Is @rec, queued on @wq, waiting behind a run of itself on another queue?
 * A run on @wq, or one the slots cannot say the queue of, is not another
 * queue's: an item queued behind its own run on @wq waits, as on 2.6, and
 * is not to be run by hand outside @wq's workers, where a flush of @wq
 * from its handler would no longer be one from @wq.
 */
static bool w26_behind_other(struct wqcompat_work26_rec *rec,
			     struct workqueue_struct *wq)
{
	struct workqueue_struct *on;
	bool other = false;
	int i;

	if (w26_run_on(rec, wq))
		return false;
	for (i = 0; i < WQCOMPAT_W26_RUN_SLOTS; i++) {
		on = READ_ONCE(rec->run_slots[i].wq);
		other |= on && on != wq;
	}
	return other && w26_kernel_runs(rec);
}

/*
 * Take @rec off @pwq of @wq and run it here (w26_hand_take()); a count
 * taken for a worker's run is given back.  Return: what the take found.
 */
static enum w26_hand w26_hand_try(struct wqcompat_work26_rec *rec, void *pwq,
				  struct workqueue_struct *wq)
{
	const void *item;
	unsigned long flags;
	enum w26_hand took;

	raw_spin_lock_irqsave(&w26_lock, flags);
	took = w26_hand_take(rec, pwq, wq);
	/* for the trace: an unload may unbind the record once unlocked */
	item = rec->item;
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (took == W26_HAND_TAKEN)
		w26_hand_run(rec, item);
	else if (took == W26_HAND_BUSY)
		w26_run_end(rec, false);
	return took;
}

/*
 * Step 2 for one record: run it here if it is queued on the own
 * pool_workqueue, or on another of @wq's behind a run of itself on another
 * queue (it would wait there for that run, which may wait for the caller).
 */
static void w26_hand_one(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_self_flush *sf = arg;
	enum w26_hand took;
	void *pwq;
	bool on;

	if (rec == sf->self || READ_ONCE(rec->kind) != W26_LEGACY)
		return;
	rcu_read_lock();	/* the pool_workqueue named stays (kfree_rcu) */
	pwq = w26_queued_pwq(rec);
	on = pwq && (pwq == sf->own ||
		     (w26_pwq_wq(pwq) == sf->wq && w26_behind_other(rec, sf->wq)));
	rcu_read_unlock();
	if (!on)
		return;
	took = w26_hand_try(rec, pwq, sf->wq);
	if (took == W26_HAND_TAKEN) {
		sf->ran++;
		w26_noted_ran(sf, rec);
	} else if (took == W26_HAND_BUSY) {
		w26_hand_busy(sf, rec);
	}
}

/* Enter or leave the list of self-flushes; entering says if it may run items. */
static void w26_self_flush_enter(struct w26_self_flush *sf)
{
	struct w26_self_flush *other;
	unsigned int depth = 0;
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	list_for_each_entry(other, &w26_self_flushes, node)
		depth += other->task == current;
	list_add(&sf->node, &w26_self_flushes);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	sf->hand = depth < W26_HAND_DEPTH;
	if (!sf->hand)
		pr_warn_ratelimited("wqcompat: flush_workqueue() from a handler nested %u deep in runs by hand: the items queued behind it run after it\n",
				    depth);
}

static void w26_self_flush_leave(struct w26_self_flush *sf)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	list_del(&sf->node);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}

/**
 * w26_flush_self - flush_workqueue() from a legacy handler running on @wq
 * @wq: the workqueue
 * @own: the caller's pool_workqueue of @wq
 *
 * As described at the top of this file.  Modern items on @wq are not
 * waited for: that would be the kernel's flush, which waits for the caller
 * itself.  Context: a worker of @wq; sleeps.
 */
void w26_flush_self(struct workqueue_struct *wq, void *own)
{
	struct w26_self_flush sf = {
		.wq = wq, .own = own, .self = w26_current_rec(),
		.task = current,
	};
	unsigned int pass, i;

	atomic_long_inc(&w26_stats.self_flushes);
	w26_self_flush_enter(&sf);
	/* Room for every bound record and some bound meanwhile. */
	sf.max = w26_nr_bound_now() + 64;
	sf.noted = kvmalloc_array(sf.max, sizeof(*sf.noted), GFP_KERNEL);
	if (!sf.noted) {
		sf.max = 0;
		pr_warn_ratelimited("wqcompat: no memory to flush_workqueue() from a handler: the items on other CPUs' queues are not waited for\n");
	}
	w26_for_each_rec(w26_note_one, &sf);
	wqcompat_test_delay(WQCOMPAT_HOOK_FLUSH_NOTED);
	for (pass = 0; sf.hand && pass < W26_HAND_PASSES; pass++) {
		sf.ran = 0;
		w26_for_each_rec(w26_hand_one, &sf);
		if (!sf.ran)
			break;
	}
	for (i = 0; i < sf.nr; i++)
		w26_wait_noted(&sf.noted[i]);
	kvfree(sf.noted);
	w26_self_flush_leave(&sf);
}

/* Runs by hand of items queued on @wq, from a handler of another queue. */
struct w26_behind {
	struct workqueue_struct *wq;
	struct wqcompat_work26_rec *self;	/* the caller's own item */
	unsigned int ran;
};

static void w26_behind_one(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_behind *b = arg;
	void *pwq;
	bool on;

	if (READ_ONCE(rec->kind) != W26_LEGACY)
		return;
	rcu_read_lock();	/* the pool_workqueue named stays (kfree_rcu) */
	pwq = w26_queued_pwq(rec);
	on = pwq && w26_pwq_wq(pwq) == b->wq;
	rcu_read_unlock();
	if (!on || (rec != b->self && !w26_behind_other(rec, b->wq)))
		return;
	if (w26_hand_try(rec, pwq, b->wq) == W26_HAND_TAKEN)
		b->ran++;
}

/**
 * w26_run_behind_on - run the legacy items queued on @wq behind runs of
 * themselves on other queues
 * @wq: a workqueue that the caller, a legacy handler running on another
 *	queue, is about to flush or destroy
 *
 * Such an item (w26_behind_other()) waits in its pool until its other run
 * ends, and that run may be the caller (2.6: a handler that queues its own item
 * on another queue, then flushes it: schedule_work(self);
 * flush_scheduled_work()) or wait for the caller (two handlers, each
 * flushing the other's queue while its own item is queued there).  2.6
 * ran each on @wq's thread beside the other run; here they are taken off
 * @wq and run by hand, nested in the caller, before it waits.  The
 * caller's own item is taken wherever its run is.  Items queued on @wq
 * before them then run after them.  Runs by hand nest as deep as a flush
 * from a handler lets them (W26_HAND_DEPTH).
 * Context: a worker; sleeps if the handlers do.
 */
void w26_run_behind_on(struct workqueue_struct *wq)
{
	struct w26_behind b = { .wq = wq, .self = w26_current_rec() };
	struct w26_self_flush sf = { .wq = wq, .task = current };
	unsigned int pass;

	w26_self_flush_enter(&sf);
	for (pass = 0; sf.hand && pass < W26_HAND_PASSES; pass++) {
		b.ran = 0;
		w26_for_each_rec(w26_behind_one, &b);
		if (!b.ran)
			break;
	}
	w26_self_flush_leave(&sf);
}

/* The kernel's flush of a queue, made for a legacy handler of another. */
struct w26_flusher {
	struct work_struct work;
	struct workqueue_struct *wq;
	struct completion done;
};

static void w26_flusher_fn(struct work_struct *work)
{
	struct w26_flusher *f = container_of(work, struct w26_flusher, work);

	__flush_workqueue(f->wq);
	complete(&f->done);
	wqcompat_test_delay(WQCOMPAT_HOOK_FLUSHER_DONE);
}

/*
 * flush_workqueue(@wq) from a legacy handler running on another queue.
 * The kernel's flush waits for every item queued on @wq before it began,
 * and an item that waits there behind a run of itself in its pool
 * (w26_run_behind_on()) may be queued at any moment before it: by
 * another CPU, even the caller's own item.  So the kernel's flush runs in
 * a worker of wqcompat_flush_wq while the caller, every HZ / 10 until it
 * returns, runs such items by hand.  It may wait for items queued a little
 * after the call (the worker's flush begins later), never for fewer.
 */
static void w26_flush_other(struct workqueue_struct *wq)
{
	struct w26_flusher f = { .wq = wq };

	w26_run_behind_on(wq);
	wqcompat_test_delay(WQCOMPAT_HOOK_FLUSH_SCANNED);
	INIT_WORK_ONSTACK(&f.work, w26_flusher_fn);
	init_completion(&f.done);
	(queue_work)(w26_flush_wq, &f.work);
	while (!wait_for_completion_timeout(&f.done, HZ / 10))
		w26_run_behind_on(wq);
	/*
	 * Not flush_work(): the completion was the worker's last access to @f
	 * (the kernel lets a work function free its item), and a flush_work()
	 * here would tell lockdep that every run of this handler's class
	 * waits for the flush of @wq, which runs items of that class.
	 */
	destroy_work_on_stack(&f.work);
}

/**
 * wqcompat_flush_workqueue - flush_workqueue() of any queue
 * @wq: workqueue
 *
 * Waits until every item queued on @wq before the call has run (the
 * kernel's flush).  Called from a legacy handler running on @wq itself,
 * where the kernel's would wait for the caller forever, it does what
 * 2.6's did there: runs the legacy items queued behind the caller on its
 * own pool_workqueue by hand, in the caller, and waits for the legacy
 * items that were queued on @wq's other pool_workqueues or running in its
 * other workers when it was called; modern items on @wq are then not
 * waited for.
 * Context: process; sleeps.
 */
void wqcompat_flush_workqueue(struct workqueue_struct *wq)
{
	void *own = w26_worker_pwq(true);

	if (w26_any_parked())	/* queued from hard IRQ before the call */
		w26_drain_parked();
	/* The caller runs on @own: it stays. */
	if (own && w26_pwq_wq(own) == wq)
		w26_flush_self(wq, own);
	else if (own)
		w26_flush_other(wq);
	else
		__flush_workqueue(wq);
}
EXPORT_SYMBOL_GPL(wqcompat_flush_workqueue);

/**
 * wqcompat_flush_scheduled_work - 2.6 flush_scheduled_work()
 *
 * flush_workqueue() of the events queue: waits until every item queued
 * there before the call has run; items queued later and armed timers are
 * not waited for.  Never flushes system_wq.
 * Context: process; sleeps.
 */
void wqcompat_flush_scheduled_work(void)
{
	if (READ_ONCE(wqcompat_events_wq))
		wqcompat_flush_workqueue(wqcompat_events_wq);
}
EXPORT_SYMBOL_GPL(wqcompat_flush_scheduled_work);

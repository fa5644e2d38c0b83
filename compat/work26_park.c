// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy item's first queueing where no record can be had: parked, and
 * queued by process context.
 *
 * Theory
 * ------
 * 2.6's queue_work() needed no memory: a hard-IRQ handler could queue any
 * number of items it had just initialised, and each call returned 1.  An
 * item here needs a record at its first queueing; records come from a free
 * list that a worker keeps filled, and a caller that finds it empty adds
 * some, unless it may not allocate: in hard IRQ or with interrupts off
 * (work26_pool.c, w26_may_alloc()).  Such a caller's item is parked: it
 * goes on a lane, a FIFO list of parked items for one (queue, CPU, time
 * due), linked through the item's own data word, which an unbound item
 * does not otherwise use:
 *
 *	->data	= next parked item | W26_PARKED (PENDING and bit 1)
 *	->entry	= handler, data	(as for any unbound item)
 *	->func	= wqcompat_work_unbound
 *
 * and the call returns 1.  A parked item is pending, as the caller was
 * told: work_pending() is true (the PENDING bit), queueing it again
 * returns 0, a cancel takes it off its lane and returns 1, INIT_WORK resets
 * it.  The worker (and anyone who must wait for it: flush_workqueue(),
 * flush_work(), destroy_workqueue()) drains the lanes in process context:
 * under w26_lock, each item is taken off, bound to a record, its shadow
 * queued (armed for what is left of its delay) before the link that the
 * lockless fast paths follow is published, so that no other queueing can
 * find it idle in between, and its data word given back.
 *
 * What differs from 2.6: a parked item is queued after items queued
 * directly in the meantime (2.6 queued in call order), and a burst that
 * targets more than W26_LANES (queue, CPU, time due) at once gets 0 for
 * the rest, logged and counted as `exhausted`.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "work26_rec.h"

#define W26_LANES	64

static_assert(__alignof__(struct work_struct) >= 8,
	      "a parked item's link keeps 3 low bits");

struct w26_lane {
	struct workqueue_struct *wq;	/* NULL: the lane is free */
	int cpu;
	bool delayed;
	unsigned long due;		/* jiffies, if @delayed */
	struct work_struct *head, *tail;
};

/* All under w26_lock. */
static struct w26_lane w26_lanes[W26_LANES];
static unsigned long w26_nr_parked;

static struct work_struct *w26_park_next(struct work_struct *work)
{
	return (struct work_struct *)(atomic_long_read(&work->data) &
				      ~W26_PARK_BITS);
}

static void w26_park_link(struct work_struct *work, struct work_struct *next)
{
	atomic_long_set(&work->data, (unsigned long)next | W26_PARKED);
}

/* The idle data word of an unbound item, given back. */
static void w26_park_release(struct work_struct *work)
{
	atomic_long_set(&work->data, WORK_STRUCT_NO_POOL);
}

/*
 * Unlink @work, which follows @prev (NULL: the head) on @lane; a lane left
 * empty is free again.  The item's data word keeps its link, so that it
 * stays pending: the caller gives the word back (w26_park_release()) once
 * it may look idle.  Caller holds w26_lock.
 */
static void w26_lane_unlink(struct w26_lane *lane, struct work_struct *prev,
			    struct work_struct *work)
{
	struct work_struct *next = w26_park_next(work);

	lockdep_assert_held(&w26_lock);
	if (prev)
		w26_park_link(prev, next);
	else
		lane->head = next;
	if (lane->tail == work)
		lane->tail = prev;
	if (!lane->head)
		lane->wq = NULL;
	w26_nr_parked--;
}

static struct w26_lane *w26_lane_for(struct workqueue_struct *wq, int cpu,
				     bool delayed, unsigned long due)
{
	struct w26_lane *lane, *free = NULL;

	lockdep_assert_held(&w26_lock);
	for (lane = w26_lanes; lane < w26_lanes + W26_LANES; lane++) {
		if (!lane->wq) {
			free = free ?: lane;
			continue;
		}
		if (lane->wq == wq && lane->cpu == cpu &&
		    lane->delayed == delayed && (!delayed || lane->due == due))
			return lane;
	}
	if (free) {
		free->wq = wq;
		free->cpu = cpu;
		free->delayed = delayed;
		free->due = due;
	}
	return free;
}

/**
 * w26_park - park a legacy item that no record could be had for
 * @work: the unbound legacy item
 * @owner: THIS_MODULE of the call site
 * @wq: the queue of the call
 * @cpu: its CPU, or WORK_CPU_UNBOUND (then the caller's CPU)
 * @delay: its delay in jiffies; 0: queue
 *
 * Context: any, hard IRQ included; takes w26_lock.
 * Return: 1 if parked (the queueing call returns 1), 0 if it was parked
 * already or its module is going (the call returns 0: pending, or
 * refused), -EAGAIN if it was bound meanwhile (the caller queues it
 * again), -ENOSPC if every lane is taken (logged and counted).
 */
int w26_park(struct work_struct *work, struct module *owner,
	     struct workqueue_struct *wq, int cpu, unsigned long delay)
{
	void (*func)(void *data);
	struct w26_lane *lane;
	unsigned long flags;
	int ret = 1;

	if (cpu == WORK_CPU_UNBOUND)
		cpu = raw_smp_processor_id();
	raw_spin_lock_irqsave(&w26_lock, flags);
	func = (void (*)(void *))READ_ONCE(work->entry.next);
	if (READ_ONCE(work->func) != wqcompat_work_unbound) {
		ret = -EAGAIN;
	} else if (w26_is_parked(work) ||
		   w26_module_refused(owner, func, work)) {
		ret = 0;
	} else {
		lane = w26_lane_for(wq, cpu, delay, jiffies + delay);
		if (!lane) {
			ret = -ENOSPC;
		} else {
			w26_park_link(work, NULL);
			if (lane->tail)
				w26_park_link(lane->tail, work);
			else
				lane->head = work;
			lane->tail = work;
			w26_nr_parked++;
		}
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (ret == 1) {
		atomic_long_inc(&w26_stats.parked);
		w26_refill_soon();
	} else if (ret == -ENOSPC) {
		w26_refuse_exhausted((const void *)func);
	}
	return ret;
}

/* Take @work off its lane, if it is on one.  Caller holds w26_lock. */
static bool w26_unpark_locked(struct work_struct *work, bool delayed_only)
{
	struct work_struct *prev, *cur;
	struct w26_lane *lane;

	lockdep_assert_held(&w26_lock);
	if (!w26_is_parked(work))
		return false;
	for (lane = w26_lanes; lane < w26_lanes + W26_LANES; lane++) {
		if (!lane->wq || (delayed_only && !lane->delayed))
			continue;
		for (prev = NULL, cur = lane->head; cur;
		     prev = cur, cur = w26_park_next(cur)) {
			if (cur != work)
				continue;
			w26_lane_unlink(lane, prev, work);
			w26_park_release(work);
			return true;
		}
	}
	return false;
}

/**
 * w26_unpark - cancel a parked item
 * @work: a legacy item
 * @delayed_only: only if it was parked with a delay (2.6's
 *	cancel_delayed_work() stopped timers, not queued items)
 *
 * Context: any; takes w26_lock.  Return: true if it was parked and is no
 * longer: it will not run for that queueing.
 */
bool w26_unpark(struct work_struct *work, bool delayed_only)
{
	unsigned long flags;
	bool ret;

	if (!w26_is_parked(work))
		return false;
	raw_spin_lock_irqsave(&w26_lock, flags);
	ret = w26_unpark_locked(work, delayed_only);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return ret;
}

/*
 * Take the first parked item off the first lane that has one, bind it to
 * a record (the one at its address, else *@spare), queue its shadow, then
 * publish the link.  Caller holds w26_lock.  Return: false if no item was
 * parked; *@dropped: an item whose module is going, dropped.
 */
static bool w26_unpark_one(struct wqcompat_work26_rec **spare,
			   struct work_struct **dropped)
{
	struct wqcompat_work26_rec *rec;
	struct w26_lane *lane, was;
	void (*func)(void *data);
	struct work_struct *work;
	unsigned long now = jiffies;
	void *data;

	lockdep_assert_held(&w26_lock);
	for (lane = w26_lanes; lane < w26_lanes + W26_LANES; lane++)
		if (lane->wq)
			break;
	if (lane == w26_lanes + W26_LANES)
		return false;
	work = lane->head;
	func = (void (*)(void *))READ_ONCE(work->entry.next);
	data = READ_ONCE(work->entry.prev);
	if (w26_module_refused(NULL, func, work)) {
		*dropped = work;
		w26_lane_unlink(lane, NULL, work);
		w26_park_release(work);
		return true;
	}
	rec = w26_rec_for(work, spare);
	if (!rec)
		return false;	/* the caller brings a spare */
	was = *lane;
	w26_lane_unlink(lane, NULL, work);
	w26_publish_rec(rec, work, NULL, func, data);
	if (was.delayed && time_after(was.due, now))
		(queue_delayed_work_on)(was.cpu, was.wq, &rec->dwork,
					was.due - now);
	else
		(queue_work_on)(was.cpu, was.wq, &rec->dwork.work);
	w26_park_release(work);
	w26_publish_link(rec, work, true);
	return true;
}

/**
 * w26_drain_parked - queue every parked item
 *
 * Called by the pool's worker, and by whoever must wait for parked items
 * (flush_workqueue(), flush_work(), destroy_workqueue()) before it waits.
 * An item whose module is going is dropped, and reported.
 * Context: process; sleeps (it allocates records).
 */
void w26_drain_parked(void)
{
	struct wqcompat_work26_rec *spare = NULL;
	struct work_struct *dropped;
	unsigned long flags;
	bool more = true;

	while (more && READ_ONCE(w26_nr_parked)) {
		if (!spare)
			spare = w26_pop_free_wait();
		if (!spare)
			break;	/* no memory: the worker tries again */
		dropped = NULL;
		raw_spin_lock_irqsave(&w26_lock, flags);
		more = w26_unpark_one(&spare, &dropped);
		raw_spin_unlock_irqrestore(&w26_lock, flags);
		if (dropped)
			pr_warn("wqcompat: legacy work %p queued from an interrupt while its module was going away: not run\n",
				dropped);
		cond_resched();
	}
	if (spare)
		w26_unpop(spare);
}

/* Are items parked?  A hint, lockless. */
bool w26_any_parked(void)
{
	return READ_ONCE(w26_nr_parked) != 0;
}

/**
 * w26_park_going - a going module's parked items: taken off, reported
 * @mod: the module
 *
 * Context: process.  Return: how many.
 */
unsigned int w26_park_going(struct module *mod)
{
	struct work_struct *work, *next, *prev;
	struct w26_lane *lane;
	unsigned int found = 0;
	unsigned long flags;

	if (!w26_any_parked())
		return 0;
	raw_spin_lock_irqsave(&w26_lock, flags);
	for (lane = w26_lanes; lane < w26_lanes + W26_LANES; lane++) {
		prev = NULL;
		for (work = lane->wq ? lane->head : NULL; work; work = next) {
			next = w26_park_next(work);
			if (within_module((unsigned long)work, mod) ||
			    within_module((unsigned long)work->entry.next, mod)) {
				w26_lane_unlink(lane, prev, work);
				w26_park_release(work);
				found++;
			} else {
				prev = work;
			}
		}
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (found) {
		atomic_long_add(found, &w26_stats.going_cancelled);
		pr_warn("wqcompat: module %s unloaded with %u legacy work item(s) queued from an interrupt and not yet run: cancelled\n",
			module_name(mod), found);
	}
	return found;
}

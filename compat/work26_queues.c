// SPDX-License-Identifier: GPL-2.0
/*
 * The 2.6 queues around legacy work items.
 *
 * 2.6's "events" queue (keventd, one thread per CPU) becomes
 * wqcompat_events_wq, a per-CPU workqueue of one active item per CPU that
 * wqcompat.ko owns:
 * schedule_work() and friends queue there, and flush_scheduled_work()
 * flushes it, so legacy drivers never flush system_wq (which 6.x warns
 * about and which would make them wait for unrelated work).  It is
 * WQ_MEM_RECLAIM like keventd, and __WQ_LEGACY like every queue of
 * create_workqueue(): a 2.6 handler may flush any queue, and the kernel
 * excuses legacy queues from its flush-dependency check.
 *
 * Also here:
 *  - destroy_workqueue(), which first runs what legacy timers would queue
 *    on the queue later (2.6 fired them into freed memory);
 *  - the 2-argument schedule_on_each_cpu() and the 3-argument
 *    execute_in_process_context().
 */
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_hooks.h"
#include "wqcompat_kapi.h"
#include "work26_rec.h"

/* 2.6's events queue (keventd): schedule_work() and friends; NULL unloaded. */
struct workqueue_struct *wqcompat_events_wq;
EXPORT_SYMBOL_GPL(wqcompat_events_wq);

/*
 * Where a flush from a legacy handler of another queue runs the kernel's
 * flush (work26_flush.c).  __WQ_LEGACY with WQ_MEM_RECLAIM, as keventd: it
 * may flush any queue.
 */
struct workqueue_struct *w26_flush_wq;

/* Queues in wqcompat_destroy_workqueue(); list under w26_lock. */
struct w26_dying_wq {
	struct list_head node;
	struct workqueue_struct *wq;
};
static LIST_HEAD(w26_dying_wqs);
/* How many: the overlay's inline delayed fast path reads it. */
atomic_t wqcompat_w26_dying_wqs = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(wqcompat_w26_dying_wqs);

/**
 * w26_wq_dying - is @wq being destroyed by wqcompat_destroy_workqueue()?
 * @wq: a workqueue
 *
 * Called with preemption off (or in an RCU read-side section) by the
 * legacy arming paths, so that the destroyer's synchronize_rcu() waits for
 * an arming that did not see it.  Context: any.  Return: true if so.
 */
bool w26_wq_dying(struct workqueue_struct *wq)
{
	struct w26_dying_wq *d;
	unsigned long flags;
	bool dying = false;

	if (likely(!atomic_read(&wqcompat_w26_dying_wqs)))
		return false;
	raw_spin_lock_irqsave(&w26_lock, flags);
	list_for_each_entry(d, &w26_dying_wqs, node)
		dying |= d->wq == wq;
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return dying;
}

/**
 * w26_refuse_destroyed - a legacy timer armed towards a queue being
 * destroyed: count and log the refusal
 * @handler: the item's handler, for the log
 *
 * Context: any.
 */
void w26_refuse_destroyed(const void *handler)
{
	atomic_long_inc(&w26_stats.refused_destroy);
	pr_warn_ratelimited("wqcompat: %ps armed towards a workqueue being destroyed: refused, it would fire into the freed queue\n",
			    handler);
}

/*
 * Does the caller run on the events queue, 2.6's keventd: a worker of it
 * (any item, as keventd ran any), or, from an interrupt, the interrupted
 * worker?  Context: any.
 */
bool w26_in_events(void)
{
	struct workqueue_struct *wq = w26_worker_wq(false);

	return wq && wq == READ_ONCE(wqcompat_events_wq);
}

/* ------------------------------------------------------------------ */
/* destroy_workqueue() */

struct w26_timers_now {
	struct workqueue_struct *wq;
	unsigned int n;
};

/*
 * A legacy timer last armed towards the queue: if it is armed, queue its
 * item now; if its callback is running, let it queue the item (before the
 * kernel's destroy drains the queue, which refuses a queueing from
 * outside); either way wait for that run.  flush_delayed_work() does all
 * three: its timer_delete_sync() waits for a callback in flight.
 */
static void w26_timer_now(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_timers_now *tn = arg;
	bool armed;

	if (READ_ONCE(rec->dwork.wq) != tn->wq)
		return;
	armed = timer_pending(&rec->dwork.timer);
	flush_delayed_work(&rec->dwork);
	tn->n += armed;
}

/**
 * wqcompat_destroy_workqueue - 2.6 destroy_workqueue()
 * @wq: workqueue from create_workqueue(), create_singlethread_workqueue()
 *	or alloc_workqueue()
 *
 * From the call on, a legacy timer may no longer be armed towards @wq (the
 * attempt returns 0 and is logged); timers already armed towards it queue
 * their item now.  Then the kernel's destroy_workqueue() drains @wq (every
 * queued item runs, and items that handlers queue on @wq meanwhile) and
 * frees it.  2.6 flushed and freed, and a timer armed towards the queue
 * fired into freed memory later.
 * Context: process; sleeps.
 */
void wqcompat_destroy_workqueue(struct workqueue_struct *wq)
{
	struct w26_dying_wq dying = { .wq = wq };
	struct w26_timers_now tn = { .wq = wq };
	unsigned long flags;
	unsigned int early = 0;

	raw_spin_lock_irqsave(&w26_lock, flags);
	list_add(&dying.node, &w26_dying_wqs);
	atomic_inc(&wqcompat_w26_dying_wqs);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	/* An arming that did not see @wq dying has finished. */
	synchronize_rcu();
	w26_drain_parked();	/* items parked for @wq are queued or armed */
	wqcompat_test_delay(WQCOMPAT_HOOK_DESTROY_TIMERS);
	do {
		tn.n = 0;
		w26_for_each_rec(w26_timer_now, &tn);
		early += tn.n;
	} while (tn.n);
	if (early)
		pr_warn("wqcompat: destroy_workqueue(): %u legacy delayed work item(s) still armed, run now\n",
			early);
	if (w26_worker_pwq(true))	/* from a handler of another queue */
		w26_run_behind_on(wq);
	(destroy_workqueue)(wq);

	raw_spin_lock_irqsave(&w26_lock, flags);
	list_del(&dying.node);
	atomic_dec(&wqcompat_w26_dying_wqs);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}
EXPORT_SYMBOL_GPL(wqcompat_destroy_workqueue);

/* ------------------------------------------------------------------ */
/* schedule_on_each_cpu(func, info), execute_in_process_context(fn, d, ew) */

struct w26_each_all {
	atomic_t left;			/* calls not yet returned */
	struct completion done;
};

struct w26_each {
	struct work_struct work;
	void (*func)(void *info);
	void *info;
	struct w26_each_all *all;
};

static void w26_each_fn(struct work_struct *work)
{
	struct w26_each *each = container_of(work, struct w26_each, work);
	struct w26_each_all *all = each->all;

	each->func(each->info);
	if (atomic_dec_and_test(&all->left))
		complete(&all->done);
}

/*
 * Called from a handler on the events queue, the call for the caller's own
 * pool_workqueue is queued behind the caller (one active item each): take
 * it off and make it here, as 2.6.19 did (its flush_workqueue() of
 * keventd from keventd ran the queue by hand).
 */
static void w26_each_here(struct w26_each *each, void *own)
{
	if (w26_work_queued_pwq(&each->work) == own &&
	    (cancel_work)(&each->work))
		w26_each_fn(&each->work);
}

/**
 * wqcompat_schedule_on_each_cpu - 2.6 schedule_on_each_cpu(func, info)
 * @func: called as func(info) once on every online CPU, in process context
 * @info: its argument
 *
 * Waits until all calls returned, with a completion rather than the
 * kernel's flush_work(): called from a handler on the events queue (2.6
 * drivers did), that would be a recursive wait to lockdep.  There, the
 * call queued for the caller's own CPU would wait behind the caller (the
 * events queue runs one item per CPU, as keventd): it is made in the
 * caller, as 2.6 ran it by hand.
 * Return: 0, or -ENOMEM.
 * Context: process; sleeps; allocates (as 2.6 did).
 */
int wqcompat_schedule_on_each_cpu(void (*func)(void *info), void *info)
{
	void *own = w26_worker_pwq(false);
	struct w26_each_all all;
	struct w26_each __percpu *works;
	int cpu;

	if (own && w26_pwq_wq(own) != wqcompat_events_wq)
		own = NULL;
	works = alloc_percpu(struct w26_each);
	if (!works)
		return -ENOMEM;
	init_completion(&all.done);
	cpus_read_lock();
	atomic_set(&all.left, num_online_cpus());
	for_each_online_cpu(cpu) {
		struct w26_each *each = per_cpu_ptr(works, cpu);

		INIT_WORK(&each->work, w26_each_fn);
		each->func = func;
		each->info = info;
		each->all = &all;
		(queue_work_on)(cpu, wqcompat_events_wq, &each->work);
	}
	if (own)	/* behind the caller on its own queue: here, now */
		for_each_online_cpu(cpu)
			w26_each_here(per_cpu_ptr(works, cpu), own);
	wait_for_completion(&all.done);
	cpus_read_unlock();
	free_percpu(works);
	return 0;
}
EXPORT_SYMBOL_GPL(wqcompat_schedule_on_each_cpu);

/**
 * wqcompat_execute_in_process_context - 2.6.18 execute_in_process_context()
 * @fn: called as fn(data)
 * @data: its argument
 * @ew: storage for the deferred call; must live until @fn ran
 * @owner: THIS_MODULE of the call site
 *
 * Outside interrupt context, calls @fn at once; in interrupt context,
 * queues it on the events queue.
 * Context: any.
 * Return: 0 if @fn ran at once, 1 if it was deferred.  2.6 could not fail
 * to defer it, and its callers have no failure path: when no record can be
 * had in interrupt context (see wqcompat.work26_reserve), the call is
 * logged, @fn does not run, and 1 is still returned.
 */
int wqcompat_execute_in_process_context(void (*fn)(void *data), void *data,
					struct execute_work *ew,
					struct module *owner)
{
	static struct lock_class_key key;

	if (!in_interrupt()) {
		fn(data);
		return 0;
	}
	wqcompat_init_work(&ew->work, fn, data, owner, &key,
			   "(work_completion)execute_work");
	wqcompat_queue_work_on(WORK_CPU_UNBOUND, wqcompat_events_wq, &ew->work,
			       owner);
	return 1;
}
EXPORT_SYMBOL_GPL(wqcompat_execute_in_process_context);

/* ------------------------------------------------------------------ */

/**
 * wqcompat_work26_init - bring up the 2.6 workqueue layer
 *
 * Return: 0 or -ENOMEM.  Context: module init.
 */
int wqcompat_work26_init(void)
{
	struct workqueue_struct *wq;
	int ret;

	ret = wqcompat_work26_pool_init();
	if (ret)
		return ret;
	/* 2.6's keventd: per CPU, one item at a time on each, never stuck */
	wq = alloc_workqueue("wqcompat_events", WQ_MEM_RECLAIM | __WQ_LEGACY,
			     1);
	if (!wq) {
		wqcompat_work26_pool_exit();
		return -ENOMEM;
	}
	if (!w26_worker_layout_ok(wq)) {
		pr_err("wqcompat: this kernel's struct worker or struct pool_workqueue does not begin as wqcompat_kapi.h says: not loaded\n");
		(destroy_workqueue)(wq);
		wqcompat_work26_pool_exit();
		return -ENODEV;
	}
	w26_flush_wq = alloc_workqueue("wqcompat_flush", WQ_UNBOUND |
				       WQ_MEM_RECLAIM | __WQ_LEGACY, 0);
	if (!w26_flush_wq) {
		(destroy_workqueue)(wq);
		wqcompat_work26_pool_exit();
		return -ENOMEM;
	}
	WRITE_ONCE(wqcompat_events_wq, wq);
	return 0;
}

/**
 * wqcompat_work26_exit - tear the 2.6 workqueue layer down
 *
 * Every module that used it is gone (they depend on wqcompat.ko), and
 * took its records with it.  Context: module exit.
 */
void wqcompat_work26_exit(void)
{
	struct workqueue_struct *wq = wqcompat_events_wq;

	WRITE_ONCE(wqcompat_events_wq, NULL);
	(destroy_workqueue)(wq);
	(destroy_workqueue)(w26_flush_wq);
	wqcompat_work26_pool_exit();
}

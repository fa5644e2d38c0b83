// SPDX-License-Identifier: GPL-2.0
/*
 * The 2.6 queues around legacy work items.
 *
 * 2.6's "events" queue (keventd, one thread per CPU) becomes
 * wqcompat_events_wq, a per-CPU workqueue that wqcompat.ko owns:
 * schedule_work() and friends queue there, and flush_scheduled_work()
 * flushes it, so legacy drivers never flush system_wq (which 6.x warns
 * about and which would make them wait for unrelated work).  It is
 * WQ_MEM_RECLAIM like keventd, and __WQ_LEGACY like every queue of
 * create_workqueue(): a 2.6 handler may flush any queue, and the kernel
 * excuses legacy queues from its flush-dependency check.
 *
 * Also here:
 *  - flush_workqueue() from a legacy handler running on that very queue,
 *    which 2.6 ran by hand ("keventd trying to flush its own queue") and
 *    drivers relied on, and which a modern workqueue deadlocks on;
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
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "work26_rec.h"

struct workqueue_struct *wqcompat_events_wq;
EXPORT_SYMBOL_GPL(wqcompat_events_wq);

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

/* ------------------------------------------------------------------ */
/* A flush from a handler running on the queue it flushes */

struct w26_self_flush {
	struct workqueue_struct *wq;
	struct wqcompat_work26_rec *self;
	unsigned int ran;		/* items run by hand this pass */
};

/*
 * One legacy item queued on the queue (not armed, not running elsewhere):
 * take it off and run it here, as 2.6's run_workqueue() did.  The run is
 * counted (@runs) before the shadow is taken off, so that a cancel,
 * flush or unload that finds the shadow idle waits for it
 * (w26_wait_runs()); an item whose module is going is left to its unload.
 */
static void w26_run_by_hand(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_self_flush *sf = arg;
	struct task_struct *prev;
	void (*func)(void *data);
	unsigned long flags;
	unsigned int busy;
	bool counted = false, taken = false;
	void *data;

	if (rec == sf->self || READ_ONCE(rec->kind) != W26_LEGACY ||
	    READ_ONCE(rec->qwq) != sf->wq ||
	    timer_pending(&rec->dwork.timer))
		return;
	busy = (work_busy)(&rec->dwork.work);
	if (!(busy & WORK_BUSY_PENDING) || (busy & WORK_BUSY_RUNNING))
		return;
	raw_spin_lock_irqsave(&w26_lock, flags);
	if (rec->kind == W26_LEGACY && !rec->dying && !rec->releasing) {
		atomic_long_inc(&rec->runs);
		/* counted before it is taken off: w26_wait_runs() sees one */
		smp_mb__after_atomic();
		counted = true;
		taken = (cancel_delayed_work)(&rec->dwork);
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (!taken) {
		if (counted)	/* not ours to run after all */
			w26_run_end(rec, false);
		return;
	}
	w26_get_handler(rec, &func, &data);
	prev = READ_ONCE(rec->hand_task);
	WRITE_ONCE(rec->hand_task, current);
	if (func)
		func(data);
	WRITE_ONCE(rec->hand_task, prev);
	w26_run_end(rec, true);
	sf->ran++;
}

/*
 * A legacy item running on the queue in another worker: wait for it, with
 * the shim's wait (the kernel's flush_work() of an item of the caller's
 * own queue is a recursive wait to lockdep).
 */
static void w26_wait_other(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_self_flush *sf = arg;

	if (rec == sf->self || READ_ONCE(rec->kind) != W26_LEGACY ||
	    READ_ONCE(rec->qwq) != sf->wq)
		return;
	if ((work_busy)(&rec->dwork.work) & WORK_BUSY_RUNNING)
		w26_wait_runs(rec);
}

/*
 * 2.6's flush_cpu_workqueue() from the queue's own thread ran the queue by
 * hand, nested in the caller, until it was empty.  Do that for the legacy
 * items queued on @wq, then wait for the legacy items that other workers
 * of @wq are running.  Modern items on @wq are not waited for: they would
 * need the kernel's flush, which waits for the caller itself.  Passes are
 * bounded so that an item re-queueing itself cannot keep us here forever.
 */
static void w26_flush_self(struct workqueue_struct *wq,
			   struct wqcompat_work26_rec *self)
{
	struct w26_self_flush sf = { .wq = wq, .self = self };
	int pass;

	atomic_long_inc(&w26_stats.self_flushes);
	for (pass = 0; pass < 8; pass++) {
		sf.ran = 0;
		w26_for_each_rec(w26_run_by_hand, &sf);
		if (!sf.ran)
			break;
	}
	w26_for_each_rec(w26_wait_other, &sf);
}

/*
 * Does the caller run a legacy handler on the events queue, 2.6's keventd
 * (itself, or an item a flush runs in it by hand)?  From hard IRQ: the
 * interrupted task.  Context: any.
 */
bool w26_in_events(void)
{
	struct wqcompat_work26_rec *self = w26_current_rec();

	return self && READ_ONCE(self->run_qwq) == READ_ONCE(wqcompat_events_wq);
}

/**
 * wqcompat_flush_workqueue - flush_workqueue() of any queue
 * @wq: workqueue
 *
 * Waits until every item queued on @wq before the call has run (the
 * kernel's flush; see docs/compat-workqueue-2.6.md for items a concurrent
 * flush from a handler on @wq runs by hand).  Called from a legacy handler
 * running on @wq itself, where the kernel's would wait for the caller
 * forever, it runs the legacy items queued on @wq by hand, in the caller,
 * and waits for those running in other workers, as 2.6 did; modern items
 * on @wq are then not waited for.
 * Context: process; sleeps.
 */
void wqcompat_flush_workqueue(struct workqueue_struct *wq)
{
	struct wqcompat_work26_rec *self = w26_current_rec();

	if (self && READ_ONCE(self->run_qwq) == wq)
		w26_flush_self(wq, self);
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

/* ------------------------------------------------------------------ */
/* destroy_workqueue() */

struct w26_timers_now {
	struct workqueue_struct *wq;
	unsigned int n;
};

/* A legacy timer armed towards the queue: queue its item now, and wait. */
static void w26_timer_now(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_timers_now *tn = arg;

	if (READ_ONCE(rec->dwork.wq) == tn->wq &&
	    timer_pending(&rec->dwork.timer) &&
	    flush_delayed_work(&rec->dwork))
		tn->n++;
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
	do {
		tn.n = 0;
		w26_for_each_rec(w26_timer_now, &tn);
		early += tn.n;
	} while (tn.n);
	if (early)
		pr_warn("wqcompat: destroy_workqueue(): %u legacy delayed work item(s) still armed, run now\n",
			early);
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

/**
 * wqcompat_schedule_on_each_cpu - 2.6 schedule_on_each_cpu(func, info)
 * @func: called as func(info) once on every online CPU, in process context
 * @info: its argument
 *
 * Waits until all calls returned, with a completion rather than the
 * kernel's flush_work(): called from a handler on the events queue (2.6
 * drivers did), that would be a recursive wait to lockdep; the per-CPU
 * pools start another worker while this one sleeps, as keventd's own flush
 * ran the queue on 2.6.  Return: 0, or -ENOMEM.
 * Context: process; sleeps; allocates (as 2.6 did).
 */
int wqcompat_schedule_on_each_cpu(void (*func)(void *info), void *info)
{
	struct w26_each_all all;
	struct w26_each __percpu *works;
	int cpu;

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
	wq = alloc_workqueue("wqcompat_events", WQ_MEM_RECLAIM | __WQ_LEGACY,
			     0);
	if (!wq) {
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
	wqcompat_work26_pool_exit();
}

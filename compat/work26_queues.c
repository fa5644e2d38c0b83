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
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_kapi.h"
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
	unsigned long pwq;		/* the caller's pool_workqueue, or 0 */
	unsigned int pass;
	unsigned int ran;		/* items run by hand this pass */
};

/* The pool_workqueue a queued item's data word names, or 0. */
static unsigned long w26_pwq_of(unsigned long data)
{
	if ((data & (WORK_STRUCT_PENDING | WORK_STRUCT_PWQ)) !=
	    (WORK_STRUCT_PENDING | WORK_STRUCT_PWQ))
		return 0;
	return data & WORK_STRUCT_PWQ_MASK;
}

static void w26_probe_fn(struct work_struct *work)
{
}

/*
 * The pool_workqueue of @wq that the caller, a worker of @wq, runs for:
 * the one a queueing on this CPU lands on (a per-CPU queue's workers stay
 * on their CPU; an ordered queue has one).  Learnt from the data word of
 * an on-stack probe queued there and cancelled at once: the kernel keeps
 * the pointer private.  0 if a worker took the probe first, each try.
 */
static unsigned long w26_own_pwq(struct workqueue_struct *wq)
{
	struct work_struct probe;
	unsigned long pwq = 0;
	int try;

	for (try = 0; try < 4 && !pwq; try++) {
		INIT_WORK_ONSTACK(&probe, w26_probe_fn);
		(queue_work_on)(raw_smp_processor_id(), wq, &probe);
		pwq = w26_pwq_of(atomic_long_read(&probe.data));
		(cancel_work_sync)(&probe);
		destroy_work_on_stack(&probe);
	}
	return pwq;
}

/*
 * One legacy item queued on the caller's own pool_workqueue (not armed,
 * not running): take it off and run it here, as 2.6's run_workqueue() ran
 * the caller's CPU queue.  The run is counted (@runs) and named
 * (@hand_task) before the shadow is taken off, so that a cancel, flush or
 * unload that finds the shadow idle waits for it (w26_wait_runs()), and a
 * worker that gets the item queued again waits until it is over
 * (w26_shadow_fn()); an item whose module is going is left to its unload.
 *
 * Only items of the caller's own pool_workqueue: they cannot run before
 * the caller returns on a queue of one active item per CPU (2.6's
 * create_workqueue()) or an ordered one, and any flush_workqueue() that
 * started before they were queued started before the caller was queued
 * too (a pool_workqueue starts its items in order), so it waits for the
 * caller and the runs in it.
 */
static void w26_run_by_hand(struct wqcompat_work26_rec *rec,
			    struct w26_self_flush *sf)
{
	struct task_struct *prev;
	void (*func)(void *data);
	unsigned long flags;
	bool counted = false, taken = false;
	void *data;

	raw_spin_lock_irqsave(&w26_lock, flags);
	prev = rec->hand_task;
	if (rec->kind == W26_LEGACY && !rec->dying && !rec->releasing &&
	    (!prev || prev == current)) {
		atomic_long_inc(&rec->runs);
		WRITE_ONCE(rec->hand_task, current);
		/* counted before it is taken off: w26_wait_runs() sees one */
		smp_mb__after_atomic();
		counted = true;
		taken = (cancel_delayed_work)(&rec->dwork);
		if (!taken)
			WRITE_ONCE(rec->hand_task, prev);
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (!taken) {
		if (counted)	/* not ours to run after all */
			w26_run_end(rec, false);
		return;
	}
	w26_get_handler(rec, &func, &data);
	if (func)
		func(data);
	WRITE_ONCE(rec->hand_task, prev);
	w26_run_end(rec, true);
	sf->ran++;
}

/*
 * Has the run of @rec queued on @pwq ended, or was it cancelled?  When it
 * was seen queued, @done runs had ended and @active were in progress; no
 * run of the item can begin before that one (it is pending until then),
 * so once @active + 1 more have ended, it has.
 */
static bool w26_queued_run_over(struct wqcompat_work26_rec *rec,
				unsigned long pwq, u32 done, u32 active)
{
	unsigned long runs = atomic_long_read(&rec->runs);

	if ((u32)((runs >> 32) - done) > active)
		return true;
	if (w26_pwq_of(atomic_long_read(&rec->dwork.work.data)) == pwq)
		return false;			/* still queued there */
	/* not queued, nor running: cancelled */
	return !w26_runs_active(rec) &&
	       !((work_busy)(&rec->dwork.work) & WORK_BUSY_RUNNING);
}

/*
 * A legacy item queued on another pool_workqueue of the queue (another
 * CPU's, which 2.6's flush waited for): wait until its run has ended, or
 * it was cancelled, without the kernel's flush_work() (from a worker of
 * the same queue, a recursive wait to lockdep).  A run's beginning and
 * end wake us; nothing does when a cancel takes the item off or a worker
 * that got it has not begun, so the condition is also looked at every
 * HZ / 10.
 */
static void w26_wait_queued(struct wqcompat_work26_rec *rec, unsigned long pwq)
{
	unsigned long runs = atomic_long_read(&rec->runs);
	u32 done = runs >> 32, active = runs & W26_RUN_ACTIVE;

	atomic_inc(&rec->waiters);
	smp_mb__after_atomic();	/* pairs with w26_run_end() */
	while (!wait_var_event_timeout(&rec->runs,
				       w26_queued_run_over(rec, pwq, done,
							   active),
				       HZ / 10))
		;
	atomic_dec(&rec->waiters);
}

/*
 * One record, in a pass of w26_flush_self(): run it by hand if it is
 * queued on the caller's pool_workqueue; in the first pass, wait for it if
 * it is queued on another or runs in another worker.
 */
static void w26_flush_one(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_self_flush *sf = arg;
	unsigned long pwq;
	bool running;

	if (rec == sf->self || READ_ONCE(rec->kind) != W26_LEGACY ||
	    READ_ONCE(rec->qwq) != sf->wq ||
	    timer_pending(&rec->dwork.timer))
		return;
	pwq = w26_pwq_of(atomic_long_read(&rec->dwork.work.data));
	running = (work_busy)(&rec->dwork.work) & WORK_BUSY_RUNNING;
	if (pwq && (pwq == sf->pwq || !sf->pwq)) {
		/* queued here while another worker runs it: that run first */
		if (running)
			w26_wait_runs(rec);
		w26_run_by_hand(rec, sf);
	} else if (sf->pass == 0) {
		if (pwq)
			w26_wait_queued(rec, pwq);
		else if (running)
			w26_wait_runs(rec);
	}
}

/*
 * 2.6's flush_cpu_workqueue() from the queue's own thread ran the queue by
 * hand, nested in the caller, until it was empty, and waited for the
 * other CPUs' queues.  Do that for the legacy items on @wq: wait for those
 * queued on other pool_workqueues or running in other workers, and run
 * those queued on the caller's own by hand, pass after pass while a pass
 * ran one (bounded, so that an item re-queueing itself cannot keep us
 * here forever).  Modern items on @wq are not waited for: they would need
 * the kernel's flush, which waits for the caller itself.
 */
static void w26_flush_self(struct workqueue_struct *wq,
			   struct wqcompat_work26_rec *self)
{
	struct w26_self_flush sf = { .wq = wq, .self = self };

	atomic_long_inc(&w26_stats.self_flushes);
	sf.pwq = w26_own_pwq(wq);
	for (sf.pass = 0; sf.pass < 8; sf.pass++) {
		sf.ran = 0;
		w26_for_each_rec(w26_flush_one, &sf);
		if (!sf.ran && sf.pass)
			break;
	}
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
 * kernel's flush).  Called from a legacy handler running on @wq itself,
 * where the kernel's would wait for the caller forever, it runs the legacy
 * items queued on the caller's own CPU queue of @wq by hand, in the
 * caller, and waits for those queued on other CPUs or running in other
 * workers, as 2.6 did; modern items on @wq are then not waited for.
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

// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy (2.6.0-2.6.19) work item's run: the shadow's work function,
 * the count of runs in progress, runs by hand, and which run the caller
 * is in.
 *
 * Theory
 * ------
 * A worker runs an item's shadow, w26_shadow_fn(), which calls the
 * record's handler with its data.  2.6 also ran items another way: a
 * flush_workqueue() called by the queue's own thread ran the items queued
 * behind the caller "by hand", nested in the caller (work26_flush.c).  The
 * kernel knows nothing of such a run, so the record counts every run, a
 * worker's or by hand, in @runs (runs in progress and runs finished, one
 * atomic add at each end of a run), and names the task of a run by hand
 * in @hand_task.  cancel_work_sync(), flush_work(), the reclaim pass and a
 * going module wait for the count (w26_wait_runs()).
 *
 * One item never runs twice at once on one queue (2.6: one thread per
 * CPU, and 6.x's non-reentrancy); on two queues it may (2.6 ran it on
 * each queue's thread).  A run by hand for a queue and a worker's run of
 * the same item on that queue exclude each other with a store, a full
 * barrier and a load on each side (Dekker): the worker names its queue in
 * a run slot, then looks at @hand_task and @hand_wq; the hand run names
 * itself and its queue, then looks at the slots.  At least one of them
 * sees the other: the worker then waits for the run by hand to end (its
 * slot and count given back meanwhile), the hand run gives up.
 *
 * Which run the caller is in is the kernel's: worker->current_pwq, of
 * which workqueue (wqcompat_kapi.h).  It is exact after CPU hotplug (a
 * worker keeps its pool_workqueue), for an item running on two queues at
 * once, and for an item the kernel queued itself, where anything this
 * module wrote at queueing time would race with the queueing.
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_hooks.h"
#include "wqcompat_kapi.h"
#include "work26_rec.h"

#define CREATE_TRACE_POINTS
#include "work26_trace.h"

/* For the KUnit suite that checks what they say (tests/kunit/work26). */
EXPORT_TRACEPOINT_SYMBOL_GPL(wqcompat_work26_bind);
EXPORT_TRACEPOINT_SYMBOL_GPL(wqcompat_work26_run);

static_assert(sizeof(long) == 8, "@runs packs two 32-bit counts");

/* ------------------------------------------------------------------ */
/* The caller's run, from the kernel's worker */

/* The calling task's struct worker, if it is a workqueue worker.  Any context. */
static struct wqcompat_worker_head *w26_worker(void)
{
	if (!(current->flags & PF_WQ_WORKER))
		return NULL;
	return kthread_data(current);
}

/**
 * w26_worker_pwq - the pool_workqueue the calling worker runs an item for
 * @legacy: only while the item is a legacy one (a shadow, or an item the
 *	kernel queued itself); a run by hand nested in it counts
 *
 * Context: any; from an interrupt, the interrupted task's.  Return: the
 * pool_workqueue (struct wqcompat_pwq_head), or NULL if the caller is not
 * a worker running such an item.
 */
void *w26_worker_pwq(bool legacy)
{
	struct wqcompat_worker_head *w = w26_worker();
	work_func_t fn;

	if (!w || !READ_ONCE(w->current_work))
		return NULL;
	fn = READ_ONCE(w->current_func);
	if (legacy && fn != w26_shadow_fn && fn != wqcompat_work_trampoline)
		return NULL;
	return READ_ONCE(w->current_pwq);
}

/* The workqueue the calling worker runs an item for, or NULL.  Any context. */
struct workqueue_struct *w26_worker_wq(bool legacy)
{
	void *pwq = w26_worker_pwq(legacy);

	return pwq ? w26_pwq_wq(pwq) : NULL;
}

struct w26_layout_probe {
	struct work_struct work;
	struct workqueue_struct *wq;
	bool ok;
};

static void w26_layout_fn(struct work_struct *work)
{
	struct w26_layout_probe *p =
		container_of(work, struct w26_layout_probe, work);
	struct wqcompat_worker_head *w = w26_worker();

	p->ok = w && w->current_work == work &&
		w->current_func == w26_layout_fn && w->current_pwq &&
		w26_pwq_wq(w->current_pwq) == p->wq;
}

/**
 * w26_worker_layout_ok - do struct worker and struct pool_workqueue begin
 * as struct wqcompat_worker_head and struct wqcompat_pwq_head say?
 * @wq: a workqueue to run a probe item on
 *
 * Runs an item on @wq and compares what the worker holds with what the
 * item knows of its own run.  Context: process; sleeps.
 * Return: true if they match.
 */
bool w26_worker_layout_ok(struct workqueue_struct *wq)
{
	struct w26_layout_probe p = { .wq = wq };

	INIT_WORK_ONSTACK(&p.work, w26_layout_fn);
	(queue_work)(wq, &p.work);
	(flush_work)(&p.work);
	destroy_work_on_stack(&p.work);
	return p.ok;
}

/* ------------------------------------------------------------------ */
/* Counting runs */

/*
 * A run of @rec's handler (by a worker, or by hand) that was counted is
 * over: one atomic add takes it from the runs in progress to the runs
 * finished (@ran), or just off them (a run that did not happen); a
 * waiter, if any, is woken.  The record outlives the item, so the handler
 * may have freed the item.  Not under w26_lock (the wake-up's lock is not
 * a raw one).
 */
void w26_run_end(struct wqcompat_work26_rec *rec, bool ran)
{
	atomic_long_add(ran ? W26_RUN_DONE - 1 : -1L, &rec->runs);
	smp_mb__after_atomic();	/* pairs with w26_wait_runs() */
	if (unlikely(atomic_read(&rec->waiters)))
		wake_up_var(&rec->runs);
}

/* The legacy record whose shadow a worker runs in this task, or NULL. */
struct wqcompat_work26_rec *w26_current_rec(void)
{
	struct work_struct *cur = current_work();

	if (!cur || READ_ONCE(cur->func) != w26_shadow_fn)
		return NULL;
	return container_of(cur, struct wqcompat_work26_rec, dwork.work);
}

/* Runs of @rec in progress that are the caller's own (it is the handler). */
unsigned long w26_own_runs(struct wqcompat_work26_rec *rec)
{
	return (w26_current_rec() == rec) +
	       (READ_ONCE(rec->hand_task) == current);
}

/*
 * Have the runs of @rec in progress when @done runs had finished and
 * @active were in progress ended, but for @own of the caller's?
 */
bool w26_runs_over(struct wqcompat_work26_rec *rec, u32 done,
		   unsigned long active, unsigned long own)
{
	unsigned long v = atomic_long_read(&rec->runs);

	return (v & W26_RUN_ACTIVE) <= own ||
	       (u32)((v >> 32) - done) >= active - own;
}

/**
 * w26_wait_runs - wait for the runs of @rec's handler in progress
 * @rec: a bound record
 *
 * The runs the kernel does not know of, by hand in a flush from a handler
 * on its own queue, and those of other workers, without the kernel's
 * flush_work() (which, from a handler on the same queue, is a recursive
 * wait to lockdep).  A run in this very task (the caller is the handler)
 * is not waited for.  Runs that start later are not waited for.
 * Context: process; sleeps.  Return: true if it waited.
 */
bool w26_wait_runs(struct wqcompat_work26_rec *rec)
{
	unsigned long own = w26_own_runs(rec);
	unsigned long v, active;
	u32 done;

	atomic_inc(&rec->waiters);
	smp_mb__after_atomic();	/* the caller's cancel or flush, then the count */
	v = atomic_long_read(&rec->runs);
	active = v & W26_RUN_ACTIVE;
	done = v >> 32;
	if (active > own)
		wait_var_event(&rec->runs, w26_runs_over(rec, done, active, own));
	atomic_dec(&rec->waiters);
	return active > own;
}

/* A worker's run slot is given back: its end counted in it, then freed. */
static inline void w26_run_slot_free(struct wqcompat_work26_rec *rec, int slot)
{
	struct wqcompat_w26_run_slot *s;

	if (unlikely(slot < 0)) {
		atomic_dec(&rec->run_overflow);
		return;
	}
	s = &rec->run_slots[slot];
	/* only the slot's owner writes @ended */
	smp_store_release(&s->ended, s->ended + 1);
	smp_wmb();	/* then free: w26_run_slot_on() */
	WRITE_ONCE(s->wq, NULL);
}

/*
 * A run by hand of the item for this queue is in progress, and a worker
 * was given it (queued again meanwhile): wait until the run by hand is
 * over, the worker's own run not counted and its slot free, so that a
 * flush nested in the run by hand does not wait for this worker, which
 * waits for it.  Out of line: its on-stack wait entry would give every run
 * of w26_shadow_fn() a larger frame and a stack-protector check.
 */
static noinline void w26_wait_hand(struct wqcompat_work26_rec *rec, int slot)
{
	w26_run_slot_free(rec, slot);
	smp_mb__before_atomic();	/* freed before the count goes down */
	w26_run_end(rec, false);
	atomic_inc(&rec->waiters);
	smp_mb__after_atomic();	/* pairs with w26_run_end() */
	wqcompat_test_delay(WQCOMPAT_HOOK_HAND_WAIT);
	wait_var_event(&rec->runs, !READ_ONCE(rec->hand_task));
	atomic_dec(&rec->waiters);
}

/*
 * A run that begins beside others (on other queues) takes a free slot of
 * 1.. with a cmpxchg, or counts as overflow: -1.
 */
static noinline int w26_run_slot_take_shared(struct wqcompat_work26_rec *rec,
					     struct workqueue_struct *wq)
{
	int i;

	for (i = 1; i < WQCOMPAT_W26_RUN_SLOTS; i++)
		if (!cmpxchg(&rec->run_slots[i].wq, NULL, wq))
			return i;
	atomic_inc(&rec->run_overflow);
	return -1;
}

/*
 * A worker's run begins: counted, and the queue it runs on named in a
 * slot, for a flush from another handler of that queue, which waits for
 * this run and for none on other queues (work26_flush.c), and for a run by
 * hand for that queue, which it excludes (see the theory).  A run alone
 * (none other in progress, by hand included) takes slot 0 with a store:
 * every run that ended freed its slot before its count went down, and
 * this run's count is fully ordered.
 * Return: the slot, for w26_worker_run_end().
 */
static __always_inline int w26_worker_run_begin(struct wqcompat_work26_rec *rec)
{
	struct workqueue_struct *wq = w26_worker_wq(true);
	unsigned long before;
	int slot;

	for (;;) {
		before = atomic_long_inc_return(&rec->runs) - 1;
		if (unlikely(before & W26_RUN_ACTIVE)) {
			slot = w26_run_slot_take_shared(rec, wq);
		} else {
			WRITE_ONCE(rec->run_slots[0].wq, wq);
			slot = 0;
		}
		smp_mb();	/* named, then @hand_task: see the theory */
		if (likely(!READ_ONCE(rec->hand_task)))
			break;
		smp_rmb();	/* @hand_wq is written before @hand_task */
		if (READ_ONCE(rec->hand_wq) != wq)
			break;	/* by hand for another queue: beside it */
		w26_wait_hand(rec, slot);
	}
	if (unlikely(atomic_read(&rec->waiters)))
		wake_up_var(&rec->runs);	/* w26_wait_queued(): it began */
	return slot;
}

/* The run ends: its slot freed (after its end is counted in it), then counted. */
static __always_inline void w26_worker_run_end(struct wqcompat_work26_rec *rec,
					       int slot)
{
	w26_run_slot_free(rec, slot);
	smp_mb__before_atomic();	/* freed before the count goes down */
	w26_run_end(rec, true);
}

/**
 * w26_shadow_fn - the work function of every shadow
 * @shadow: &rec->dwork.work, run by a workqueue worker
 *
 * Calls the record's handler with its data.  The handler may free its
 * item (2.6 handlers often did); the item is not looked at.
 * Context: workqueue worker.
 */
void w26_shadow_fn(struct work_struct *shadow)
{
	struct wqcompat_work26_rec *rec =
		container_of(shadow, struct wqcompat_work26_rec, dwork.work);
	void (*func)(void *data);
	const void *item;
	void *data;
	int slot;

	if (unlikely(READ_ONCE(rec->kind) == W26_PLAIN)) {
		w26_plain_run(rec);
		return;
	}
	wqcompat_test_delay(WQCOMPAT_HOOK_RUN_BEGIN);
	slot = w26_worker_run_begin(rec);
	w26_get_handler(rec, &func, &data);
	item = READ_ONCE(rec->item);
	if (likely(func)) {
		trace_wqcompat_work26_run(item, (const void *)func,
					  W26_RUN_WORKER, 0);
		func(data);
		trace_wqcompat_work26_run(item, (const void *)func,
					  W26_RUN_WORKER, 1);
	} else {
		pr_err_ratelimited("wqcompat: legacy work %p has no handler (INIT_WORK with NULL?): not run\n",
				   item);
	}
	w26_worker_run_end(rec, slot);
	wqcompat_test_delay(WQCOMPAT_HOOK_RUN_ENDED);
}

/* ------------------------------------------------------------------ */
/* Runs by hand */

/**
 * w26_hand_take - take a legacy item off a pool_workqueue to run it here
 * @rec: a record
 * @pwq: the pool_workqueue it must be queued on (not armed)
 * @wq: the workqueue of @pwq
 *
 * Caller holds w26_lock.  The item is taken only if it is still queued on
 * @pwq, is not being run by hand already (by anyone: no recursion into an
 * item's own run by hand), no worker runs it on @wq (runs on other queues
 * go on beside it, as on 2.6), and its module is not
 * going; it is counted as a run in progress and named by the caller's
 * task before the kernel's cancel takes it off, so that whoever finds
 * the shadow idle waits for the run (w26_wait_runs()).
 * Return: W26_HAND_TAKEN (the caller runs it with w26_hand_run()),
 * W26_HAND_NOT_HERE, or W26_HAND_BUSY (a worker began it: the caller
 * calls w26_run_end(@rec, false) once it dropped the lock, and waits for
 * that run if it must).
 */
enum w26_hand w26_hand_take(struct wqcompat_work26_rec *rec, void *pwq,
			    struct workqueue_struct *wq)
{
	lockdep_assert_held(&w26_lock);
	if (rec->kind != W26_LEGACY || rec->dying || rec->releasing ||
	    rec->hand_task || w26_queued_pwq(rec) != pwq)
		return W26_HAND_NOT_HERE;
	atomic_long_inc(&rec->runs);
	WRITE_ONCE(rec->hand_wq, wq);
	smp_wmb();	/* @hand_wq, then @hand_task: w26_worker_run_begin() */
	WRITE_ONCE(rec->hand_task, current);
	smp_mb();	/* named, then the slots: see the theory */
	if (w26_run_on(rec, wq) || !(cancel_delayed_work)(&rec->dwork)) {
		WRITE_ONCE(rec->hand_task, NULL);
		return W26_HAND_BUSY;
	}
	return W26_HAND_TAKEN;
}

/**
 * w26_hand_run - run an item w26_hand_take() took, in the caller
 * @rec: the record
 * @item: its item, as read under w26_lock with the take (for the trace)
 *
 * Context: process (a worker); sleeps if the handler does.  Not under
 * w26_lock.
 */
void w26_hand_run(struct wqcompat_work26_rec *rec, const void *item)
{
	void (*func)(void *data);
	void *data;

	w26_get_handler(rec, &func, &data);
	if (func) {
		trace_wqcompat_work26_run(item, (const void *)func,
					  W26_RUN_HAND, 0);
		func(data);
		trace_wqcompat_work26_run(item, (const void *)func,
					  W26_RUN_HAND, 1);
	}
	WRITE_ONCE(rec->hand_task, NULL);
	w26_run_end(rec, true);	/* wakes a worker in w26_wait_hand() */
}

/* ------------------------------------------------------------------ */
/* The driver's own item, run by the kernel */

/**
 * wqcompat_work_trampoline - ->func of a bound legacy item
 * @work: the driver's item, run by a workqueue worker
 *
 * The kernel runs a legacy item itself only when a kernel function that
 * bypasses the overlay queued it (or it is the work of a struct
 * delayed_work given to the kernel's delayed API).  Finds the record by
 * address and calls the handler; if there is none, logs instead.
 * Context: workqueue worker.  Waits for nothing but the handler.
 */
void wqcompat_work_trampoline(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec = w26_lookup(work, W26_LEGACY);
	void (*func)(void *data);
	void *data;

	if (!rec) {
		atomic_long_inc(&w26_stats.lost);
		pr_err_ratelimited("wqcompat: legacy work %p run by the kernel has no record: not run\n",
				   work);
		return;
	}
	atomic_long_inc(&w26_stats.behind_back);
	w26_get_handler(rec, &func, &data);
	if (func) {
		trace_wqcompat_work26_run(work, (const void *)func,
					  W26_RUN_KERNEL, 0);
		func(data);
		trace_wqcompat_work26_run(work, (const void *)func,
					  W26_RUN_KERNEL, 1);
	}
}
EXPORT_SYMBOL_GPL(wqcompat_work_trampoline);

/**
 * wqcompat_work_unbound - ->func of an unbound legacy item
 * @work: the driver's item, run by a workqueue worker
 *
 * Every overlay call binds an item before queueing it, so this runs only
 * if the kernel queued an item that never went through the overlay; the
 * kernel's list linkage has then overwritten its handler.  Logs and
 * returns.
 * Context: workqueue worker.
 */
void wqcompat_work_unbound(struct work_struct *work)
{
	atomic_long_inc(&w26_stats.lost);
	pr_err_ratelimited("wqcompat: legacy work %p queued by the kernel before any wqcompat call: handler unknown, not run\n",
			   work);
}
EXPORT_SYMBOL_GPL(wqcompat_work_unbound);

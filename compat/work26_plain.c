// SPDX-License-Identifier: GPL-2.0
/*
 * A 2.6 delayed call on a modern work_struct.
 *
 * A half-converted driver may initialise an item with the 2-argument
 * INIT_WORK and still queue it with the 2.6 queue_delayed_work(wq, w, d).
 * The item is the driver's modern one (its handler takes the work_struct),
 * and what 2.6 kept inside it, a timer, comes from a W26_PLAIN record
 * found by the item's address: its shadow, armed with the delay, calls the
 * item's own handler with the item, as a worker would.
 *
 * From the arming until the shadow starts (or is cancelled) the record
 * holds the item's own PENDING bit, as 2.6's timer held ->pending:
 * work_pending() is true and queue_work() returns 0, through the overlay
 * or the kernel.  The shadow clears it just before it calls the handler,
 * as a worker does.  While any W26_PLAIN record is bound, the overlay's
 * flush_work(), cancel_work*() and work_busy() of a modern item look here
 * too (wqcompat_plain_active): the kernel's alone would not see the shadow
 * and would spin on a PENDING bit that no queue holds.
 *
 * A slow path by nature (a lookup under w26_lock per call), for code in
 * the middle of its conversion.  A module that goes away with such a timer
 * armed has it cancelled like any of its legacy items (work26_going.c).
 */
#include <linux/module.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "work26_rec.h"
#include "wqcompat_hooks.h"
#include "work26_trace.h"

/* W26_PLAIN records bound; the overlay's gate for modern items. */
atomic_t wqcompat_plain_active = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(wqcompat_plain_active);

/*
 * The shadow of a W26_PLAIN record runs: give the item back its PENDING
 * bit and call its handler, as process_one_work() would.  Worker context.
 */
void w26_plain_run(struct wqcompat_work26_rec *rec)
{
	struct work_struct *work = READ_ONCE(rec->item);
	work_func_t fn;

	if (!work)
		return;
	fn = READ_ONCE(work->func);
	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
	/*
	 * As set_work_pool_and_clear_pending(): the handler's loads must not
	 * pass the clear, or a queueing that still saw PENDING (and so
	 * returned 0) would find its update unread (arm64, powerpc).
	 */
	smp_mb__after_atomic();
	trace_wqcompat_work26_run(work, (const void *)fn, W26_RUN_WORKER, 0);
	fn(work);
	trace_wqcompat_work26_run(work, (const void *)fn, W26_RUN_WORKER, 1);
}

/**
 * w26_plain_queue - 2.6 queue_delayed_work() of a modern item
 * @cpu: CPU to queue on when the delay expires, or WORK_CPU_UNBOUND
 * @wq: workqueue
 * @work: modern item (its ->func takes the work_struct)
 * @delay: jiffies; 0 queues at once
 * @owner: THIS_MODULE of the call site
 *
 * Return: true only if newly armed (or queued); false if already pending,
 * @wq is being destroyed, the module is going, or no record could be had.
 * Context: any, hard IRQ included; does not sleep.
 */
bool w26_plain_queue(int cpu, struct workqueue_struct *wq,
		     struct work_struct *work, unsigned long delay,
		     struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	bool ret = false;

	if (!delay)
		return (queue_work_on)(cpu, wq, work);
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
		return false;
	rec = w26_take(work, owner, W26_PLAIN);
	if (IS_ERR_OR_NULL(rec)) {
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
		if (!rec)
			pr_err_ratelimited("wqcompat: no record for the timer of %ps (2.6 queue_delayed_work of a 2-argument INIT_WORK item): not queued\n",
					   work->func);
		return false;
	}
	wqcompat_test_delay(WQCOMPAT_HOOK_PLAIN_TAKEN);
	rcu_read_lock();
	if (READ_ONCE(rec->dying)) {
		ret = false;
	} else if (w26_wq_dying(wq)) {
		w26_refuse_destroyed((const void *)work->func);
	} else {
		/* still @work's record: a going module's unload waits for us */
		trace_wqcompat_work26_bind(work, &rec->dwork.work, &rec->dwork.timer,
					   (const void *)work->func);
		ret = (queue_delayed_work_on)(cpu, wq, &rec->dwork, delay);
	}
	rcu_read_unlock();
	if (!ret)
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
	return ret;
}

/*
 * The shadow was cancelled before it ran: the item's PENDING bit, which
 * the record held, is the canceller's to give back.  @work is the
 * caller's item, never read from the record: a going module may unbind
 * and recycle the record as soon as the cancel has won.
 */
static bool w26_plain_cancelled(struct work_struct *work, bool stopped)
{
	if (stopped) {
		wqcompat_test_delay(WQCOMPAT_HOOK_PLAIN_CANCELLED);
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
	}
	return stopped;
}

/*
 * Cancel @work's legacy timer (@timer_only) or its timer and queued run,
 * in the same hold of w26_lock as the lookup, so that a record a going
 * module recycles meanwhile is never another item's cancelled.
 */
static bool w26_plain_cancel_locked(struct work_struct *work, bool timer_only)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;
	bool stopped = false;

	raw_spin_lock_irqsave(&w26_lock, flags);
	rec = w26_lookup_locked(work, W26_PLAIN);
	if (rec && (!timer_only || timer_pending(&rec->dwork.timer)))
		stopped = (cancel_delayed_work)(&rec->dwork);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return w26_plain_cancelled(work, stopped);
}

/**
 * w26_plain_cancel_timer - 2.6 cancel_delayed_work() of a modern item
 * @work: modern item
 *
 * Return: 1 if its legacy timer was pending and the handler will not run
 * for it, else 0.  Context: any.
 */
int w26_plain_cancel_timer(struct work_struct *work)
{
	return w26_plain_cancel_locked(work, true);
}

/**
 * w26_plain_cancel - cancel a modern item's legacy timer and its run
 * @work: modern item
 * @sync: also wait for a run in progress (process context only)
 *
 * Return: true if the legacy timer or its run was pending.  Context: any
 * without @sync; process with it.
 */
bool w26_plain_cancel(struct work_struct *work, bool sync)
{
	struct wqcompat_work26_rec *rec;

	if (!sync)
		return w26_plain_cancel_locked(work, false);
	rec = w26_lookup(work, W26_PLAIN);
	return rec && w26_plain_cancelled(work,
					  cancel_delayed_work_sync(&rec->dwork));
}

/**
 * w26_plain_flush - wait for a modern item's legacy run in progress
 * @work: modern item
 *
 * Return: true if it waited.  Context: process; sleeps.
 */
bool w26_plain_flush(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec = w26_lookup(work, W26_PLAIN);

	return rec && (flush_work)(&rec->dwork.work);
}

/**
 * w26_plain_busy - work_busy() of a modern item's legacy run
 * @work: modern item
 *
 * Return: WORK_BUSY_* of its shadow, or 0.  Context: any.
 */
unsigned int w26_plain_busy(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec = w26_lookup(work, W26_PLAIN);

	return rec ? (work_busy)(&rec->dwork.work) : 0;
}

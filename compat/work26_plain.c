// SPDX-License-Identifier: GPL-2.0
/*
 * compat/work26_plain.c: a 2.6 delayed call on a modern work_struct.
 *
 * A half-converted driver may initialise an item with the 2-argument
 * INIT_WORK and still queue it with the 2.6 queue_delayed_work(wq, w, d).
 * The item is the kernel's (its handler takes the work_struct), so it has
 * no shadow; what 2.6 kept inside it, a timer, comes from a W26_PLAIN
 * record found by the item's address.  While the timer is armed the
 * record holds the item's own PENDING bit, as 2.6's timer held ->pending:
 * work_pending() is true and queue_work() returns 0, through the overlay
 * or the kernel.  The timer clears the bit and queues the item in one
 * hold of w26_lock.
 *
 * This is a slow path by nature (a lock and a lookup per call), used only
 * by code in the middle of its conversion.  The overlay's cancel_work*()
 * of a modern item looks here only while some plain timer is armed
 * (wqcompat_plain_armed), because the kernel's would spin on a PENDING bit
 * that no queue holds.
 *
 * The one window: between the timer's clearing of PENDING and its
 * queue_work_on(), a queue_work() of the item from elsewhere returns 1
 * where 2.6 returned 0; the item runs once either way.
 */
#include <linux/module.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat_kapi.h"
#include "work26_rec.h"

atomic_t wqcompat_plain_armed = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(wqcompat_plain_armed);

/* The timer: armed -> queued.  Softirq, interrupts off (TIMER_IRQSAFE). */
void w26_plain_timer_fn(struct timer_list *t)
{
	struct wqcompat_work26_rec *rec =
		timer_container_of(rec, t, dwork.timer);
	struct work_struct *work;

	raw_spin_lock(&w26_lock);
	if (rec->armed) {
		work = rec->item;
		rec->armed = false;
		atomic_dec(&wqcompat_plain_armed);
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
		(queue_work_on)(rec->dwork.cpu, rec->dwork.wq, work);
	}
	raw_spin_unlock(&w26_lock);
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
	unsigned long flags;

	if (!delay)
		return (queue_work_on)(cpu, wq, work);
	if (w26_wq_dying(wq)) {
		atomic_long_inc(&w26_stats.refused_destroy);
		return false;
	}
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
		return false;
	rec = w26_take(work, owner, W26_PLAIN);
	if (!rec) {
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
		WARN_ONCE(1, "wqcompat: no record for the timer of %ps (queue_delayed_work of a 2-argument INIT_WORK item): not queued\n",
			  work->func);
		return false;
	}
	/* Holding the item's PENDING bit, we own the idle timer. */
	if (rec->dwork.timer.function != w26_plain_timer_fn)
		timer_setup(&rec->dwork.timer, w26_plain_timer_fn,
			    TIMER_IRQSAFE);
	raw_spin_lock_irqsave(&w26_lock, flags);
	rec->dwork.wq = wq;
	rec->dwork.cpu = cpu;
	rec->armed = true;
	atomic_inc(&wqcompat_plain_armed);
	rec->dwork.timer.expires = jiffies + delay;
	if (cpu == WORK_CPU_UNBOUND)
		add_timer(&rec->dwork.timer);
	else
		add_timer_on(&rec->dwork.timer, cpu);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return true;
}

/**
 * w26_plain_stop - stop a W26_PLAIN record's timer, if it is armed
 * @rec: the record
 *
 * Waits for a timer callback in progress.  Return: true if the timer was
 * armed and is now stopped (the item's PENDING bit is then released).
 * Context: any (the timer is irq-safe).
 */
bool w26_plain_stop(struct wqcompat_work26_rec *rec)
{
	unsigned long flags;
	bool stopped = false;

	if (!timer_delete_sync(&rec->dwork.timer))
		return false;
	raw_spin_lock_irqsave(&w26_lock, flags);
	if (rec->armed) {
		rec->armed = false;
		atomic_dec(&wqcompat_plain_armed);
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(rec->item));
		stopped = true;
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return stopped;
}

/**
 * w26_plain_cancel - 2.6 cancel_delayed_work() of a modern item
 * @work: modern item
 *
 * Return: 1 if its legacy timer was armed and is now stopped, else 0.
 * Context: any.
 */
int w26_plain_cancel(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;

	if (!atomic_read(&wqcompat_plain_armed))
		return 0;
	rec = w26_lookup(work, W26_PLAIN);
	return rec ? w26_plain_stop(rec) : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy (2.6.0-2.6.19) work items on modern workqueues:
 * INIT_WORK, PREPARE_WORK, queueing, running, cancelling, flushing.
 *
 * Theory
 * ------
 * A legacy item is the driver's struct work_struct, never given to the
 * kernel.  Its record (compat/work26_rec.h) embeds a struct delayed_work,
 * the shadow; every call on the item is the kernel's own call on the
 * shadow, so queueing, pending state, delayed work, cancelling and flushing
 * are the kernel's, exactly, and cost what they cost natively:
 *
 *	queue_work(wq, w)		queue_work_on(&rec->dwork.work)
 *	queue_delayed_work(wq, w, d)	queue_delayed_work_on(&rec->dwork, d)
 *	work_pending(w)			PENDING of the shadow (timer or queue)
 *	cancel_delayed_work(w)		cancel_delayed_work(&rec->dwork) if
 *					its timer is pending, else 0
 *	cancel_rearming_delayed_work(w)	cancel_delayed_work_sync(&rec->dwork)
 *	the shadow runs			w26_shadow_fn(): func(data)
 *
 * The item holds its handler and data until its first queueing binds it to
 * a record (compat/work26_pool.c), then a link to the record; finding the
 * record is three loads and three compares, no lock (w26_get_held()).
 *
 * An item's life (all transitions but binding are the kernel's, on the
 * shadow):
 *
 *	unbound --first queueing: bind--> bound, idle
 *	idle --queue_work--> queued --worker--> running --> idle
 *	idle --queue_delayed_work(d > 0)--> armed --timer--> queued
 *	armed or queued --cancel_delayed_work / cancel_*_sync--> idle
 *	bound --INIT_WORK at the same address--> bound, new handler (a
 *		pending item is cancelled first: 2.6 reset it to idle)
 *	bound --item gone (reclaim) or module going--> record free
 *
 * 2.6's cancel_delayed_work() only stopped the timer: an item whose timer
 * already fired stayed queued and ran, and the call returned 0.  Here it
 * returns 0 without touching the item when the timer is not pending, and
 * otherwise lets the kernel cancel it, which may also take the item off the
 * queue if the timer fired in between: then it returns nonzero and the
 * item does not run, which is 2.6's outcome had the call come a moment
 * earlier.  Either way nonzero means "will not run".
 *
 * The kernel running the driver's own item (a kernel function that
 * bypasses the overlay queued it, or it sits in a struct delayed_work given
 * to the kernel's delayed API) ends in wqcompat_work_trampoline(), which
 * finds the record by address and calls the handler.
 */
#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_hooks.h"
#include "work26_rec.h"
#include "work26_trace.h"

/*
 * The record of a legacy item, binding it if it has none.  Called inside
 * an RCU read-side section, so that the record is still this item's when
 * the caller reads @dying and queues it: a going module's unload marks
 * its records dying, then waits a grace period before it cancels and
 * recycles them.  NULL: the call must fail (counted and logged by
 * w26_bind()).
 */
static struct wqcompat_work26_rec *
w26_get_held(struct work_struct *work, struct module *owner)
{
	struct wqcompat_work26_rec *rec;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "a legacy queueing outside RCU");
	/*
	 * Pairs with the release of ->func in w26_bind(): a trampoline seen
	 * here comes with the link it published in ->entry.next.
	 */
	if (likely(smp_load_acquire(&work->func) == wqcompat_work_trampoline)) {
		rec = wqcompat_w26_rec_of(work);
		if (likely(rec))
			return rec;
	}
	return w26_bind(work, owner);
}

/* The record of a bound legacy item, or NULL; never binds. */
static struct wqcompat_work26_rec *w26_find(struct work_struct *work)
{
	/* Pairs with the release of ->func in w26_bind(), as in w26_get_held(). */
	if (smp_load_acquire(&work->func) != wqcompat_work_trampoline)
		return NULL;
	return wqcompat_w26_rec_of(work) ?: w26_lookup(work, W26_LEGACY);
}

/*
 * Has the kernel ever queued the driver's own item (see the theory)?  Its
 * data word then no longer holds the idle value the item was born with.
 */
static bool w26_kernel_touched(struct work_struct *work)
{
	unsigned long data = atomic_long_read(&work->data);

	return (data & ~(unsigned long)WORK_STRUCT_STATIC) !=
	       (unsigned long)WORK_STRUCT_NO_POOL && !w26_is_parked(work);
}

/* ------------------------------------------------------------------ */
/* Initialisation */

/**
 * wqcompat_init_work - 3-argument INIT_WORK(work, func, data)
 * @work: the item; any contents (it may be uninitialised memory)
 * @func: legacy handler, to be called as func(data) in process context
 * @data: its argument
 * @owner: THIS_MODULE of the call site
 * @key: lockdep class of the call site
 * @name: lockdep name
 *
 * Makes @work an idle legacy item.  If the memory still holds a binding
 * of this address (the item, or one freed at the same address, was
 * initialised and queued before), a pending run of it is cancelled, since
 * 2.6's INIT_WORK reset an item to idle (and corrupted its queue); the
 * record is kept and given @func and @data if @owner bound it.  Otherwise
 * @func and @data are stored in @work itself until its first queueing.
 *
 * Context: any, hard IRQ included; allocates nothing, never fails.  Takes
 * no lock, but for the kernel's cancel of a pending item (raw locks only).
 */
void wqcompat_init_work(struct work_struct *work, void (*func)(void *data),
			void *data, struct module *owner,
			struct lock_class_key *key, const char *name)
{
	struct wqcompat_work26_rec *rec = NULL;

	if (READ_ONCE(work->func) == wqcompat_work_trampoline)
		rec = wqcompat_w26_rec_of(work);
#ifdef CONFIG_LOCKDEP
	lockdep_init_map(&work->lockdep_map, name, key, 0);
#endif
	if (unlikely(w26_unpark(work, false)))
		pr_warn_ratelimited("wqcompat: INIT_WORK() of pending legacy work %ps (item %p): cancelled it, as 2.6 reset it\n",
				    func, work);
	if (rec) {
		if (unlikely(test_bit(WORK_STRUCT_PENDING_BIT,
				      work_data_bits(&rec->dwork.work)))) {
			if ((cancel_delayed_work)(&rec->dwork))
				pr_warn_ratelimited("wqcompat: INIT_WORK() of pending legacy work %ps (item %p): cancelled it, as 2.6 reset it\n",
						    func, work);
		}
		/*
		 * The shadow's data word stays: its handler may be running
		 * (INIT_WORK in the handler, then queue again, is a 2.6
		 * idiom), and the last pool it names is how flush_work() and
		 * cancel_work_sync() find that run; on 6.12 it also holds a
		 * waiting cancel's disable count.
		 */
		/*
		 * Only the record's own module takes it over here.  Another
		 * module's item at a reused address starts unbound, and its
		 * first queueing finds the record by address under w26_lock
		 * (w26_bind()): the owner changes only there, never while the
		 * old owner's unload decides what is its own.
		 */
		if (likely(READ_ONCE(rec->owner) == owner)) {
			wqcompat_w26_set_handler(rec, func, data);
			return;
		}
	}
	work->data = (atomic_long_t)WORK_DATA_INIT();
	WRITE_ONCE(work->entry.next, (struct list_head *)func);
	WRITE_ONCE(work->entry.prev, (struct list_head *)data);
	WRITE_ONCE(work->func, wqcompat_work_unbound);
}
EXPORT_SYMBOL_GPL(wqcompat_init_work);

/**
 * wqcompat_prepare_work - 3-argument PREPARE_WORK(work, func, data)
 * @work: item, initialised by INIT_WORK or DECLARE_WORK of either form
 * @func: new legacy handler
 * @data: its argument
 *
 * Changes only what the next run calls: pending state, queue and timer are
 * untouched.  As on 2.6 it should not be used on a queued item; if it is,
 * the run calls the old pair or the new one, never a mix.  A modern item
 * (2-argument INIT_WORK) becomes a legacy one, unless it is queued: then
 * nothing changes and the kernel log says so.
 *
 * Context: any; takes no lock unless the item's link was overwritten;
 * allocates nothing.
 */
void wqcompat_prepare_work(struct work_struct *work, void (*func)(void *data),
			   void *data)
{
	struct wqcompat_work26_rec *rec;
	/*
	 * Pairs with the releases of ->func in w26_bind() and below: the
	 * link, or the handler and data of an unbound item, come with it.
	 */
	work_func_t fn = smp_load_acquire(&work->func);

	if (fn == wqcompat_work_trampoline) {
		rec = wqcompat_w26_rec_of(work) ?: w26_lookup(work, W26_LEGACY);
		if (rec) {
			wqcompat_w26_set_handler(rec, func, data);
			return;
		}
	} else if (fn == wqcompat_work_unbound) {
		WRITE_ONCE(work->entry.next, (struct list_head *)func);
		WRITE_ONCE(work->entry.prev, (struct list_head *)data);
		return;
	}
	/* A modern item, or a legacy one whose record is gone. */
	if (test_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))) {
		WARN_ONCE(1, "wqcompat: PREPARE_WORK(%p, %ps, %p) on a queued item: not applied\n",
			  work, func, data);
		return;
	}
	WRITE_ONCE(work->entry.next, (struct list_head *)func);
	WRITE_ONCE(work->entry.prev, (struct list_head *)data);
	/*
	 * Publishes the handler and data above: pairs with the acquire of
	 * ->func when the item is bound at its first queueing.
	 */
	smp_store_release(&work->func, wqcompat_work_unbound);
}
EXPORT_SYMBOL_GPL(wqcompat_prepare_work);

/* ------------------------------------------------------------------ */
/* Queueing */

/*
 * Queue or arm a legacy item's shadow; bind the item first if it has no
 * record, or park it where none can be had (work26_park.c).
 */
static bool w26_queue(int cpu, struct workqueue_struct *wq,
		      struct work_struct *work, unsigned long delay,
		      struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	bool ret = false;
	int parked;

again:
	/* The unload of the owner waits for this section (work26_going.c). */
	rcu_read_lock();
	rec = w26_get_held(work, owner);
	if (IS_ERR_OR_NULL(rec) || unlikely(READ_ONCE(rec->dying)))
		ret = false;
	else if (unlikely(delay && w26_wq_dying(wq)))
		w26_refuse_destroyed((const void *)READ_ONCE(rec->func));
	else if (delay)
		ret = (queue_delayed_work_on)(cpu, wq, &rec->dwork, delay);
	else
		ret = (queue_work_on)(cpu, wq, &rec->dwork.work);
	rcu_read_unlock();
	if (PTR_ERR_OR_ZERO(rec) != -ENOMEM)
		return ret;
	parked = w26_park(work, owner, wq, cpu, delay);
	if (parked == -EAGAIN)
		goto again;
	return parked == 1;
}

/**
 * wqcompat_queue_work_on - queue a legacy item (queue_work, queue_work_on,
 * schedule_work)
 * @cpu: CPU, or WORK_CPU_UNBOUND
 * @wq: workqueue
 * @work: legacy item
 * @owner: THIS_MODULE of the call site (for a binding made here)
 *
 * Return: true only if the item was newly queued (or, at a first queueing
 * where no record can be had, parked to be queued from process context);
 * false if it was already pending (queued, its timer armed, or parked), is
 * being cancelled, or its module is going away.
 * Context: any, hard IRQ included; does not sleep; allocates only at an
 * item's first queueing, where allocating is allowed.
 */
bool wqcompat_queue_work_on(int cpu, struct workqueue_struct *wq,
			    struct work_struct *work, struct module *owner)
{
	return w26_queue(cpu, wq, work, 0, owner);
}
EXPORT_SYMBOL_GPL(wqcompat_queue_work_on);

/**
 * wqcompat_queue_delayed_work_on - 2.6 queue_delayed_work(_on) and
 * schedule_delayed_work(_on) on a struct work_struct
 * @cpu: CPU to queue on when the delay expires, or WORK_CPU_UNBOUND
 * @wq: workqueue
 * @work: item: legacy, or a modern work_struct (work26_plain.c)
 * @delay: jiffies; 0 queues at once, as 2.6.20 did (2.6.0-2.6.19 armed a
 *	timer that fired at the next tick)
 * @owner: THIS_MODULE of the call site
 *
 * Return: true only if newly armed (or, with @delay 0, newly queued);
 * false if already pending, being cancelled, its module going, @wq being
 * destroyed, or no record could be had (logged).
 * Context: any, hard IRQ included; does not sleep.
 */
bool wqcompat_queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
				    struct work_struct *work,
				    unsigned long delay, struct module *owner)
{
	if (!wqcompat_work_is_legacy(work))
		return w26_plain_queue(cpu, wq, work, delay, owner);
	return w26_queue(cpu, wq, work, delay, owner);
}
EXPORT_SYMBOL_GPL(wqcompat_queue_delayed_work_on);

/**
 * wqcompat_queue_dwork_on - the kernel's queue_delayed_work_on() for a
 * struct delayed_work whose work a 3-argument INIT_WORK or PREPARE_WORK
 * made legacy
 * @cpu: CPU, or WORK_CPU_UNBOUND
 * @wq: workqueue
 * @dwork: the delayed item; the kernel queues its work itself
 * @delay: jiffies
 * @owner: THIS_MODULE of the call site
 *
 * Binds the work to a record that the kernel's run finds by address
 * (wqcompat_work_trampoline()), then queues @dwork with the kernel.
 * Return: true if newly queued or armed; false if pending, or no record.
 * Context: any; does not sleep.
 */
bool wqcompat_queue_dwork_on(int cpu, struct workqueue_struct *wq,
			     struct delayed_work *dwork, unsigned long delay,
			     struct module *owner)
{
	struct wqcompat_work26_rec *rec = w26_bind_unlinked(&dwork->work, owner);
	bool ret = false;

	if (!rec)
		return false;
	rcu_read_lock();	/* destroy_workqueue() waits for it */
	if (unlikely(delay && w26_wq_dying(wq))) {
		w26_refuse_destroyed((const void *)READ_ONCE(rec->func));
	} else {
		/* the kernel queues and arms the driver's own work and timer */
		trace_wqcompat_work26_bind(&dwork->work, &dwork->work, &dwork->timer,
					   (const void *)READ_ONCE(rec->func));
		ret = (queue_delayed_work_on)(cpu, wq, dwork, delay);
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_queue_dwork_on);

/* ------------------------------------------------------------------ */
/* State, cancelling and flushing */

/**
 * wqcompat_work_pending - work_pending() of a legacy item
 * @work: legacy item
 *
 * Return: true if it is queued or its delayed-work timer is armed.
 * Context: any.
 */
bool wqcompat_work_pending(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec = w26_find(work);

	if (rec && test_bit(WORK_STRUCT_PENDING_BIT,
			    work_data_bits(&rec->dwork.work)))
		return true;
	return test_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
}
EXPORT_SYMBOL_GPL(wqcompat_work_pending);

/**
 * wqcompat_work_busy - work_busy() of any item
 * @work: legacy item, or a modern one while W26_PLAIN records exist
 *
 * Return: WORK_BUSY_PENDING and/or WORK_BUSY_RUNNING, as the kernel's.
 * Context: any.
 */
unsigned int wqcompat_work_busy(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec = w26_find(work);
	unsigned int busy = 0;

	if (!wqcompat_work_is_legacy(work)) {
		busy = w26_plain_busy(work);
		return busy | (work_busy)(work);
	}
	if (w26_is_parked(work))
		busy |= WORK_BUSY_PENDING;
	if (rec) {
		busy = (work_busy)(&rec->dwork.work);
		if (w26_runs_active(rec))
			busy |= WORK_BUSY_RUNNING;	/* run by hand */
	}
	if (w26_kernel_touched(work))
		busy |= (work_busy)(work);
	return busy;
}
EXPORT_SYMBOL_GPL(wqcompat_work_busy);

/**
 * wqcompat_flush_work - flush_work() of any item
 * @work: legacy item, or a modern one while W26_PLAIN records exist
 *
 * Waits until the item's last queueing has run, and for a run of it by
 * hand in a flush from a handler on its queue; an armed timer is not
 * waited for (as the kernel's flush_work() of a delayed item's work).
 * Return: true if it waited for something.
 * Context: process; sleeps.
 */
bool wqcompat_flush_work(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	bool ret = false;

	if (!wqcompat_work_is_legacy(work)) {
		ret = w26_plain_flush(work);
		return (flush_work)(work) || ret;
	}
	if (w26_is_parked(work))
		w26_drain_parked();	/* queued now, and waited for below */
	rec = w26_find(work);
	if (rec) {
		ret = (flush_work)(&rec->dwork.work);
		ret |= w26_wait_runs(rec);
	}
	if (w26_kernel_touched(work))
		ret |= (flush_work)(work);
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_flush_work);

/**
 * wqcompat_cancel_work - cancel_work() of any item
 * @work: legacy item, or a modern one while W26_PLAIN records exist
 *
 * Takes the item off its queue and stops its timer; does not wait for a
 * running handler.
 * Return: true if it was pending.
 * Context: any.
 */
bool wqcompat_cancel_work(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	bool ret = false;

	if (!wqcompat_work_is_legacy(work)) {
		ret = w26_plain_cancel(work, false);
		return (cancel_work)(work) || ret;
	}
	ret = w26_unpark(work, false);
	rec = w26_find(work);
	if (rec)
		ret |= (cancel_delayed_work)(&rec->dwork);
	if (w26_kernel_touched(work))
		ret |= (cancel_work)(work);
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_cancel_work);

/**
 * wqcompat_cancel_work_sync - cancel_work_sync() of any item
 * @work: legacy item, or a modern one while W26_PLAIN records exist
 *
 * Stops its timer, takes it off its queue and waits for a running
 * handler (run by a worker, or by hand in a flush from a handler on its
 * queue); converges on an item that re-queues or re-arms itself.
 * Return: true if it was pending.
 * Context: process; sleeps; not from the item's own handler.
 */
bool wqcompat_cancel_work_sync(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	bool ret = false;

	if (!wqcompat_work_is_legacy(work)) {
		ret = w26_plain_cancel(work, true);
		return (cancel_work_sync)(work) || ret;
	}
	ret = w26_unpark(work, false);
	rec = w26_find(work);
	if (rec) {
		ret |= cancel_delayed_work_sync(&rec->dwork);
		w26_wait_runs(rec);
	}
	if (w26_kernel_touched(work))
		ret |= (cancel_work_sync)(work);
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_cancel_work_sync);

/**
 * wqcompat_cancel_delayed_work - 2.6 cancel_delayed_work(struct work_struct *)
 * @work: item: legacy, or modern with a legacy timer (work26_plain.c)
 *
 * Stops the item's timer.  Does not wait for a running handler, and does
 * not take an item whose timer already fired off its queue: it runs, and
 * a flush_workqueue() that follows waits for it, as on 2.6.
 * Return: nonzero only if the timer was pending and the item will not run
 * for it (see the theory at the top for the one race).
 * Context: any, hard IRQ included; does not sleep.
 */
int wqcompat_cancel_delayed_work(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;

	if (!wqcompat_work_is_legacy(work))
		return w26_plain_cancel_timer(work);
	if (w26_unpark(work, true))
		return 1;
	rec = w26_find(work);
	if (!rec || !timer_pending(&rec->dwork.timer))
		return 0;
	return (cancel_delayed_work)(&rec->dwork);
}
EXPORT_SYMBOL_GPL(wqcompat_cancel_delayed_work);

/**
 * wqcompat_cancel_rearming_delayed_work - 2.6.19 cancel_rearming_delayed_work()
 * @work: item, possibly re-arming or re-queueing itself from its handler
 *
 * While this runs, every attempt to queue or arm the item returns 0.  On
 * return the item is idle: timer stopped, off its queue, handler finished.
 * Unlike 2.6.19's loop, it also returns for an item that does not re-arm
 * itself.
 * Context: process; sleeps.  Must not be called from the item's handler.
 */
void wqcompat_cancel_rearming_delayed_work(struct work_struct *work)
{
	wqcompat_cancel_work_sync(work);
}
EXPORT_SYMBOL_GPL(wqcompat_cancel_rearming_delayed_work);

// SPDX-License-Identifier: GPL-2.0
/*
 * A module that used the 2.6 layer goes away.
 *
 * At MODULE_STATE_GOING the module's exit has run and its memory is still
 * there.  Whatever of it the layer holds must be stopped now: a shadow
 * queued or armed runs the module's handler after its code is gone, and a
 * handler still running is executing that code.  main.c drives the rounds
 * below together with the 2.4 layer's until one finds nothing in either.
 *
 * A record is the module's if its handler is the module's, or if its item
 * lies in the module's memory (a static DECLARE_WORK): w26_rec_owned_by().
 * The module's items are never dereferenced: only their shadows are
 * cancelled.
 *
 * Begin: the module goes on w26_going_list; from then on no record is
 * bound for it (w26_module_refused(), checked by every binding).
 *
 * A round:
 *  1. Under w26_lock, mark each of its records dying: queueing it is
 *     refused from then on (the fast paths read @dying inside an RCU
 *     read-side section).
 *  2. synchronize_rcu(): a queueing that read @dying before step 1 has
 *     finished, so nothing can queue these shadows any more but their own
 *     handlers, whose re-queueing the kernel's cancel refuses while it
 *     waits.
 *  3. For each: cancel_delayed_work_sync() of the shadow (timer, queue, a
 *     running handler) or the W26_PLAIN timer, and a wait for a run by
 *     hand (a flush from a handler on its queue, which checks @dying
 *     under w26_lock before it takes an item); report what was still
 *     pending; put the record back on the free list.
 * A round that found none ends the layer's part.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_hooks.h"
#include "work26_rec.h"

static bool work26_unload_warn = true;
module_param(work26_unload_warn, bool, 0644);
MODULE_PARM_DESC(work26_unload_warn,
		 "WARN (not just log) when a module goes away with legacy work pending (default Y)");

static LIST_HEAD(w26_going_list);	/* struct w26_going, under w26_lock */

/* In rec->going_busy beside WORK_BUSY_PENDING and WORK_BUSY_RUNNING. */
#define W26_GOING_ARMED 0x80
static_assert(!((WORK_BUSY_PENDING | WORK_BUSY_RUNNING) & W26_GOING_ARMED));

static bool w26_owned_by(struct module *owner, void (*func)(void *data),
			 struct work_struct *item, struct module *mod)
{
	return owner == mod || within_module((unsigned long)func, mod) ||
	       within_module((unsigned long)item, mod);
}

/**
 * w26_module_refused - may a binding be made for this item?
 * @owner: module of the calling site
 * @func: the item's handler, or NULL
 * @item: the item
 *
 * Caller holds w26_lock.  Return: true if any of them belongs to a module
 * that is going away.
 */
bool w26_module_refused(struct module *owner, void (*func)(void *data),
			struct work_struct *item)
{
	struct w26_going *going;

	lockdep_assert_held(&w26_lock);
	list_for_each_entry(going, &w26_going_list, node)
		if (w26_owned_by(owner, func, item, going->mod))
			return true;
	return false;
}

/*
 * Is @rec @mod's to stop?  A legacy record is the module's whose memory
 * holds the item (a static DECLARE_WORK) or whose code is its handler:
 * what goes away with the module.  Which module queued or initialised it
 * does not matter (2.6 drivers export their items, or queue them from
 * inline helpers in their headers, so the caller is another module): its
 * binder counts only for a record with no handler.  A W26_PLAIN record's
 * handler is the modern item's, which it does not hold: it is the module's
 * that armed it, or that holds the item.  Called under w26_lock with
 * interrupts off: the handler is read alone, never as the seqcount-guarded
 * pair, whose writer this CPU may have interrupted.
 */
static bool w26_rec_owned_by(struct wqcompat_work26_rec *rec,
			     struct module *mod)
{
	struct work_struct *item = READ_ONCE(rec->item);
	void (*func)(void *data);

	if (within_module((unsigned long)item, mod))
		return true;
	if (rec->kind != W26_LEGACY)
		return READ_ONCE(rec->owner) == mod;
	func = READ_ONCE(rec->func);
	if (func)
		return within_module((unsigned long)func, mod);
	return READ_ONCE(rec->owner) == mod;
}

struct w26_round {
	struct module *mod;
	unsigned int found;
};

/* Step 1, for one record. */
static void w26_going_mark(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_round *round = arg;
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	if (rec->kind != W26_FREE && !rec->releasing && !rec->dying &&
	    w26_rec_owned_by(rec, round->mod)) {
		/* What it was doing when its module went: for the report. */
		rec->going_busy = (work_busy)(&rec->dwork.work) |
				  (w26_runs_active(rec) ?
				   WORK_BUSY_RUNNING : 0) |
				  (timer_pending(&rec->dwork.timer) ?
				   W26_GOING_ARMED : 0);
		WRITE_ONCE(rec->dying, true);
		round->found++;
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}

/* Step 3, for one record. */
static void w26_going_cancel(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_round *round = arg;
	void (*func)(void *data) = NULL;
	const void *handler = NULL;
	const char *what = NULL;
	struct work_struct *item;
	unsigned long flags;
	unsigned int busy;
	void *data;

	raw_spin_lock_irqsave(&w26_lock, flags);
	if (!rec->dying || rec->releasing ||
	    !w26_rec_owned_by(rec, round->mod)) {
		raw_spin_unlock_irqrestore(&w26_lock, flags);
		return;
	}
	rec->releasing = true;
	item = rec->item;
	raw_spin_unlock_irqrestore(&w26_lock, flags);

	busy = rec->going_busy;
	if (rec->kind == W26_LEGACY) {
		w26_get_handler(rec, &func, &data);
		handler = func;
	} else if ((work_busy)(&rec->dwork.work) & WORK_BUSY_PENDING) {
		/* a pending plain record holds its live item's PENDING bit */
		handler = READ_ONCE(item->func);
	}
	if (busy & W26_GOING_ARMED)
		what = "delayed work still armed: cancelled";
	else if (busy & WORK_BUSY_PENDING)
		what = "work still queued: cancelled";
	else if (busy & WORK_BUSY_RUNNING)
		what = "handler still running: waited for it";
	/* A plain record's item gives back the PENDING bit it held. */
	if (cancel_delayed_work_sync(&rec->dwork) && rec->kind == W26_PLAIN)
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(item));

	raw_spin_lock_irqsave(&w26_lock, flags);
	w26_unbind_locked(rec);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	w26_recycle(rec);

	if (!what)
		return;
	atomic_long_inc(&w26_stats.going_cancelled);
	if (READ_ONCE(work26_unload_warn))
		WARN(1, "wqcompat: module %s unloaded with legacy work %ps (item %p) pending: %s\n",
		     module_name(round->mod), handler, item, what);
	else
		pr_warn("wqcompat: module %s unloaded with legacy work %ps (item %p) pending: %s\n",
			module_name(round->mod), handler, item, what);
}

/**
 * wqcompat_work26_going_begin - no binding for @going->mod from now on
 * @going: on the caller's stack until wqcompat_work26_going_end()
 * @mod: module in MODULE_STATE_GOING
 *
 * Context: process.
 */
void wqcompat_work26_going_begin(struct w26_going *going, struct module *mod)
{
	unsigned long flags;

	going->mod = mod;
	raw_spin_lock_irqsave(&w26_lock, flags);
	list_add(&going->node, &w26_going_list);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}

/**
 * wqcompat_work26_going_round - stop and release a going module's records
 * @mod: module in MODULE_STATE_GOING, between going_begin and going_end
 *
 * One round as described at the top of this file; each item that was
 * still armed, queued or running is reported, naming the module.
 * Context: process; sleeps (an RCU grace period, running handlers).
 * Return: how many records of @mod it found; 0 ends the layer's part.
 */
unsigned int wqcompat_work26_going_round(struct module *mod)
{
	struct w26_round round = { .mod = mod };

	round.found = w26_park_going(mod);
	w26_for_each_rec(w26_going_mark, &round);
	if (!round.found)
		return 0;
	wqcompat_test_delay(WQCOMPAT_HOOK_GOING_MARKED);
	synchronize_rcu();
	w26_for_each_rec(w26_going_cancel, &round);
	return round.found;
}

/**
 * wqcompat_work26_going_end - the module is gone: forget it
 * @going: as given to wqcompat_work26_going_begin()
 *
 * Context: process.
 */
void wqcompat_work26_going_end(struct w26_going *going)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	list_del(&going->node);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * 2.4 bottom halves: 32 numbered slots, mark_bh(), init_bh(), remove_bh().
 *
 * Theory.  2.4 ran every bottom half under one global lock: no two BHs ran
 * at once on any CPU, and tq_timer and tq_immediate, run from TQUEUE_BH
 * and IMMEDIATE_BH, were serialised with them.  Drivers leaned on that:
 * their BH routines share data with each other without locks.  Here the
 * global lock is a single work item, bh_work, on the shim's own workqueue:
 *
 *	mark_bh(nr)	set bit nr of bh_pending; queue_work(bh_wq, bh_work)
 *	bh_work		take all pending bits at once; with local_bh_disable()
 *			held, call each marked slot's routine in number order
 *
 * A work item is never run by two workers of one workqueue at once: queued
 * again while it runs, on any CPU, it goes to the pool that runs it and
 * waits (workqueue.c's non-reentrancy, find_worker_executing_work()).  With
 * one item there is one pass at a time, so no two BH routines ever
 * overlap, and bh_wq need not be ordered.  It is per-CPU and WQ_HIGHPRI:
 * the tick's mark runs the pass on the CPU the timer fired on.  A BH marked
 * while bh_work runs (also by itself) sets its bit again and requeues
 * bh_work, so it runs once more after this pass: no lost marks, no livelock
 * inside one pass.
 *
 * Where the pass runs depends on the kernel (compat/wqcompat_kapi.h):
 *
 *  - 6.9 and later: bh_wq is a BH workqueue (WQ_BH).  The pass runs in
 *    softirq context, on the way out of an interrupt, as 2.4 ran bottom
 *    halves: in_serving_softirq() is true, a routine that sleeps is a bug
 *    the kernel reports, and no process runs before it on that CPU.
 *  - 6.1: bh_wq is an ordinary high-priority workqueue, and the pass runs
 *    in its kworker with bottom halves off (local_bh_disable()): atomic as
 *    in 2.4 (in_softirq() true, sleeping reported), but not serving a
 *    softirq (in_serving_softirq() false), and later than 2.4's (after a
 *    context switch, not at irq_exit).
 *
 * In both a hard IRQ still preempts a routine, as in 2.4.
 */
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include "tq_internal.h"
#include "tq_trace.h"
#include "wqcompat_kapi.h"

/* The slot table; written under wqcompat_tq_lock, read by bh_work. */
static void (*bh_base[WQCOMPAT_NR_BH])(void);
static unsigned long bh_pending;		/* bit nr: marked */
static atomic_long_t bh_marked[WQCOMPAT_NR_BH];
static atomic_long_t bh_run[WQCOMPAT_NR_BH];

static struct workqueue_struct *bh_wq;
static void bh_work_fn(struct work_struct *work);
static DECLARE_WORK(bh_work, bh_work_fn);
/* This CPU is in the BH pass (remove_bh() from a BH must not wait). */
static DEFINE_PER_CPU(bool, bh_in_pass);

/* Slots that belong to the shim: drivers may mark them, not own them. */
static bool bh_is_shim(int nr)
{
	return nr == TIMER_BH || nr == TQUEUE_BH || nr == IMMEDIATE_BH;
}

static void bh_work_fn(struct work_struct *work)
{
	unsigned long pending = xchg(&bh_pending, 0);
	unsigned int nr;

	local_bh_disable();	/* already off on a BH workqueue */
	__this_cpu_write(bh_in_pass, true);
	for_each_set_bit(nr, &pending, WQCOMPAT_NR_BH) {
		void (*routine)(void) = READ_ONCE(bh_base[nr]);

		if (!routine)
			continue;
		trace_wqcompat_bh_run(nr, routine);
		atomic_long_inc(&bh_run[nr]);
		routine();
		trace_wqcompat_bh_done(nr, routine);
	}
	__this_cpu_write(bh_in_pass, false);
	local_bh_enable();
}

/**
 * wqcompat_mark_bh() - ask for bottom half @nr to run (2.4 mark_bh)
 * @nr: 0 to WQCOMPAT_NR_BH - 1, for example IMMEDIATE_BH or SERIAL_BH
 *
 * Mark the bottom half and make sure the shim's BH work will run soon.
 * Marks coalesce: marking a BH that is marked and has not started runs it
 * once.  A BH marked while it is running is run again afterwards.  A marked
 * slot with no routine is skipped.  Routines run one at a time across all
 * CPUs, with bottom halves off (see the theory at the top of bh.c).
 *
 * Context: any, hard IRQ included, under spinlocks and with interrupts off:
 * never sleeps, never allocates, waits for nothing.
 */
void wqcompat_mark_bh(int nr)
{
	if (WARN_ON_ONCE(nr < 0 || nr >= WQCOMPAT_NR_BH))
		return;
	atomic_long_inc(&bh_marked[nr]);
	/* Set before queueing: queue_work() orders it before bh_work's xchg. */
	set_bit(nr, &bh_pending);
	queue_work(bh_wq, &bh_work);
}
EXPORT_SYMBOL_GPL(wqcompat_mark_bh);

/**
 * wqcompat_init_bh() - install a bottom-half routine (2.4 init_bh)
 * @nr: a driver's slot (SERIAL_BH, CYCLADES_BH, ... up to 31); TIMER_BH,
 *	TQUEUE_BH and IMMEDIATE_BH belong to the shim and are refused
 * @routine: called with no argument when @nr is marked
 *
 * As in 2.4, installing over another routine replaces it.  A mark already
 * pending for @nr runs @routine.  A routine of a module that is being
 * unloaded is not installed (the unload's report counts it).
 *
 * Context: any; takes a spinlock with interrupts off, never sleeps.
 */
void wqcompat_init_bh(int nr, void (*routine)(void))
{
	unsigned long flags;

	if (nr < 0 || nr >= WQCOMPAT_NR_BH || bh_is_shim(nr)) {
		wqcompat_tq_complain("init_bh(%d, %ps): slot is the shim's or out of range\n",
				     nr, routine);
		return;
	}
	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	/* a going module's: refused, and named in its unload's report */
	if (!wqcompat_tq_going_refuse_bh(routine))
		WRITE_ONCE(bh_base[nr], routine);
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
}
EXPORT_SYMBOL_GPL(wqcompat_init_bh);

/**
 * wqcompat_remove_bh() - uninstall a bottom-half routine (2.4 remove_bh)
 * @nr: a slot given to init_bh()
 *
 * Empty the slot and drop a pending mark of it, then wait until the
 * routine, if it is running, has returned: after this the routine will
 * not run again, and may be freed.  Called from a bottom half (the BH work
 * itself) it does not wait, since it cannot: the caller is that work.
 *
 * Context: process context, may sleep (it waits for the BH work to finish
 * the pass that was under way at the call).
 */
void wqcompat_remove_bh(int nr)
{
	unsigned long flags;

	if (nr < 0 || nr >= WQCOMPAT_NR_BH || bh_is_shim(nr)) {
		wqcompat_tq_complain("remove_bh(%d): slot is the shim's or out of range\n",
				     nr);
		return;
	}
	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	WRITE_ONCE(bh_base[nr], NULL);
	clear_bit(nr, &bh_pending);
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
	if (in_softirq() && this_cpu_read(bh_in_pass))
		return;
	might_sleep();
	flush_work(&bh_work);
}
EXPORT_SYMBOL_GPL(wqcompat_remove_bh);

/*
 * Empty each slot whose routine lies in @mod; returns how many.  Caller
 * holds wqcompat_tq_lock (tq_module.c takes it around this and the task
 * drop, for one snapshot).
 */
unsigned int wqcompat_bh_drop_module(struct module *mod)
{
	unsigned int nr, n = 0;

	lockdep_assert_held(&wqcompat_tq_lock);
	for (nr = 0; nr < WQCOMPAT_NR_BH; nr++) {
		if (bh_is_shim(nr) || !bh_base[nr] ||
		    !within_module((unsigned long)bh_base[nr], mod))
			continue;
		WRITE_ONCE(bh_base[nr], NULL);
		n++;
	}
	return n;
}

/* Wait for the BH pass under way (it may hold a routine read before). */
void wqcompat_bh_flush(void)
{
	flush_work(&bh_work);
}

static int bh_show(struct seq_file *m, void *v)
{
	unsigned int nr;

	seq_puts(m, "bh  marked      run         routine\n");
	for (nr = 0; nr < WQCOMPAT_NR_BH; nr++) {
		void (*routine)(void) = READ_ONCE(bh_base[nr]);
		long marked = atomic_long_read(&bh_marked[nr]);

		if (!routine && !marked)
			continue;
		seq_printf(m, "%-3u %-11ld %-11ld %ps\n", nr, marked,
			   atomic_long_read(&bh_run[nr]), routine);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bh);

const struct file_operations *wqcompat_bh_fops = &bh_fops;

int wqcompat_bh_init(void)
{
	/* Not ordered: one work item serialises itself (see the top). */
	bh_wq = alloc_workqueue("wqcompat_bh", WQCOMPAT_BH_WQ_FLAGS, 0);
	if (!bh_wq)
		return -ENOMEM;
	bh_base[TQUEUE_BH] = wqcompat_tq_timer_bh;
	bh_base[IMMEDIATE_BH] = wqcompat_tq_immediate_bh;
	return 0;
}

/* After the tick is stopped: nothing marks BHs any more. */
void wqcompat_bh_exit(void)
{
	destroy_workqueue(bh_wq);
	bh_wq = NULL;
}

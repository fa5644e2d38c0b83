// SPDX-License-Identifier: GPL-2.0
/*
 * compat/work26.c: legacy (2.6.0-2.6.19) work items on 6.1 workqueues.
 *
 * Theory
 * ------
 * A legacy item is a modern struct work_struct whose ->func is
 * wqcompat_work_trampoline().  What 2.6 kept inside the item (handler, data,
 * timer) lives in a record, struct wqcompat_work26_rec, found by the item's
 * address in a hash.  Records come from a preallocated pool, so that
 * INIT_WORK, PREPARE_WORK and every queueing call take no allocation and do
 * not sleep: they are legal in any context, hard IRQ included, as on 2.6.
 * The pool grows from process context (a work item) when it runs low; when
 * it is empty anyway, INIT_WORK warns once and the item will not run.
 *
 * A record is bound to an address, not to an object: when a driver frees an
 * item, nothing tells us, and the record stays in the hash until the same
 * address is initialised again (it is then reused) or the owning module
 * goes away (wqcompat_work26_module_going() releases all its records).
 * Hence the rule: a record's @work is dereferenced only when the record
 * says the item is live (timer armed, queued, handler running) or when the
 * driver passed the item to us.
 *
 * The states of an item, and who moves it (all under wqcompat_work26_lock):
 *
 *	idle ---queue---> queued ---trampoline---> running ---> idle
 *	idle ---queue_delayed---> armed ---timer---> queued
 *	armed ---cancel_delayed_work (timer deleted)---> idle
 *
 * "armed" sets the work's own WORK_STRUCT_PENDING_BIT, exactly as 2.6 set
 * ->pending: work_pending() is true, and queue_work() and a second
 * queue_delayed_work() return 0, through wqcompat or the kernel directly.
 * When the timer fires, wqcompat_work26_timer_fn() clears PENDING and
 * queues the item in one critical section, so no wqcompat call can slip in
 * between.
 *
 * Locking: one raw spinlock, wqcompat_work26_lock, irq-safe, protects the
 * hash, the free list and every record field but the timer (and the
 * trampoline's decrement of @running, an atomic).  It is taken
 * inside timer callbacks and around (queue_work_on)() (outside the pool
 * locks); it is never held across del_timer_sync(), cancel_work_sync() or a
 * handler.
 */
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "work26_rec.h"

static unsigned int work26_records = 1024;
module_param(work26_records, uint, 0444);
MODULE_PARM_DESC(work26_records,
		 "legacy work records preallocated, and added each time the pool runs low (default 1024)");

static unsigned int work26_max_records = 65536;
module_param(work26_max_records, uint, 0644);
MODULE_PARM_DESC(work26_max_records,
		 "upper bound of legacy work records (default 65536)");

static bool work26_unload_warn = true;
module_param(work26_unload_warn, bool, 0644);
MODULE_PARM_DESC(work26_unload_warn,
		 "WARN (not just log) when a module goes away with legacy work pending (default Y)");

DEFINE_RAW_SPINLOCK(wqcompat_work26_lock);

#define W26_HASH_BITS 10
static DEFINE_HASHTABLE(w26_hash, W26_HASH_BITS);
static HLIST_HEAD(w26_free);

/* A chunk of records; chunks are freed only at wqcompat's exit. */
struct w26_chunk {
	struct list_head node;
	unsigned int nr;
	struct wqcompat_work26_rec recs[];
};

static LIST_HEAD(w26_chunks);		/* under w26_chunks_mutex */
static DEFINE_MUTEX(w26_chunks_mutex);

/* Counters for debugfs, under wqcompat_work26_lock. */
static struct {
	unsigned int total;		/* records in all chunks */
	unsigned int free;		/* records on w26_free */
	unsigned long exhausted;	/* binds that found no record */
	unsigned long orphans;		/* trampoline calls with no record */
	unsigned long going_cancelled;	/* items cancelled at module unload */
} w26_stats;

static void w26_refill_fn(struct work_struct *work);
static DECLARE_WORK(w26_refill_work, w26_refill_fn);
static bool w26_refill_queued;		/* under wqcompat_work26_lock */

static struct dentry *w26_debugfs;

static void wqcompat_work26_timer_fn(struct timer_list *t);

/* ------------------------------------------------------------------ */
/* The pool */

/*
 * w26_add_chunk(nr) - allocate @nr records and put them on the free list.
 * Process context; may sleep.  Returns 0 or -ENOMEM.
 */
static int w26_add_chunk(unsigned int nr)
{
	struct w26_chunk *chunk;
	unsigned long flags;
	unsigned int i;

	chunk = kvzalloc(struct_size(chunk, recs, nr), GFP_KERNEL);
	if (!chunk)
		return -ENOMEM;
	chunk->nr = nr;
	for (i = 0; i < nr; i++)
		timer_setup(&chunk->recs[i].timer, wqcompat_work26_timer_fn,
			    TIMER_IRQSAFE);

	mutex_lock(&w26_chunks_mutex);
	list_add(&chunk->node, &w26_chunks);
	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	for (i = 0; i < nr; i++)
		hlist_add_head(&chunk->recs[i].node, &w26_free);
	w26_stats.total += nr;
	w26_stats.free += nr;
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	mutex_unlock(&w26_chunks_mutex);
	return 0;
}

static void w26_refill_fn(struct work_struct *work)
{
	unsigned long flags;
	unsigned int nr;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	nr = min(work26_records, work26_max_records - min(work26_max_records,
							     w26_stats.total));
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	if (nr)
		w26_add_chunk(nr);
	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	w26_refill_queued = false;
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
}

/*
 * w26_take(work) - bind a free record to @work and hash it.
 * Caller holds wqcompat_work26_lock.  Returns the record, or NULL when the
 * pool is empty.  Asks for a refill when a quarter or less is left.
 */
static struct wqcompat_work26_rec *w26_take(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;

	lockdep_assert_held(&wqcompat_work26_lock);
	if (w26_stats.free <= w26_stats.total / 4 && !w26_refill_queued &&
	    w26_stats.total < work26_max_records) {
		w26_refill_queued = true;
		(queue_work_on)(WORK_CPU_UNBOUND, system_unbound_wq,
			      &w26_refill_work);
	}
	if (hlist_empty(&w26_free)) {
		w26_stats.exhausted++;
		return NULL;
	}
	rec = hlist_entry(w26_free.first, struct wqcompat_work26_rec, node);
	hlist_del(&rec->node);
	w26_stats.free--;
	rec->work = work;
	rec->func = NULL;
	rec->data = NULL;
	rec->owner = NULL;
	rec->wq = NULL;
	rec->cpu = WORK_CPU_UNBOUND;
	rec->armed = false;
	rec->queued = 0;
	atomic_set(&rec->running, 0);
	rec->cancelling = 0;
	rec->dying = false;
	hash_add(w26_hash, &rec->node, (unsigned long)work);
	return rec;
}

/* Unhash @rec and return it to the pool.  Caller holds the lock. */
static void w26_release(struct wqcompat_work26_rec *rec)
{
	lockdep_assert_held(&wqcompat_work26_lock);
	hash_del(&rec->node);
	rec->work = NULL;
	hlist_add_head(&rec->node, &w26_free);
	w26_stats.free++;
}

/* The record bound to @work, or NULL.  Caller holds the lock. */
static struct wqcompat_work26_rec *w26_find(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;

	hash_for_each_possible(w26_hash, rec, node, (unsigned long)work)
		if (rec->work == work)
			return rec;
	return NULL;
}

static void w26_exhausted_warn(void (*func)(void *data), struct module *owner)
{
	WARN_ONCE(1, "wqcompat: legacy work record pool exhausted (%u records, wqcompat.work26_max_records=%u): %ps of %s will not run\n",
		  w26_stats.total, work26_max_records, func,
		  owner ? module_name(owner) : "kernel");
}

#ifdef CONFIG_LOCKDEP
static struct lock_class_key w26_onstack_key;
#endif

/*
 * w26_materialise(work) - move a 3-argument DECLARE_WORK item's {func,
 * data, owner} from the compound literal at work->entry.prev into a record,
 * restore work->entry and point ->func at the trampoline.  Caller holds the
 * lock and has seen ->func == wqcompat_work_decl_trampoline.  An item
 * declared at block scope lives on the stack: give it what
 * INIT_WORK_ONSTACK would have (debugobjects, a static lockdep key).
 * Returns the record or NULL (pool empty; the item stays as declared).
 */
static struct wqcompat_work26_rec *w26_materialise(struct work_struct *work)
{
	struct wqcompat_work26_decl *decl = (void *)work->entry.prev;
	struct wqcompat_work26_rec *rec;

	rec = w26_find(work) ?: w26_take(work);
	if (!rec) {
		w26_exhausted_warn(decl->func, decl->owner);
		return NULL;
	}
	rec->func = decl->func;
	rec->data = decl->data;
	rec->owner = decl->owner;
	if (object_is_on_stack(work)) {
#ifdef CONFIG_DEBUG_OBJECTS_WORK
		clear_bit(WORK_STRUCT_STATIC_BIT, work_data_bits(work));
#endif
		__init_work(work, 1);
#ifdef CONFIG_LOCKDEP
		lockdep_init_map(&work->lockdep_map, "(work_completion)wqcompat_decl",
				 &w26_onstack_key, 0);
#endif
	}
	INIT_LIST_HEAD(&work->entry);
	WRITE_ONCE(work->func, wqcompat_work_trampoline);
	return rec;
}

/*
 * w26_get(work) - the record of a legacy item, materialising a declared
 * one.  Caller holds the lock.  NULL if @work is not legacy or has none.
 */
static struct wqcompat_work26_rec *w26_get(struct work_struct *work)
{
	work_func_t fn = READ_ONCE(work->func);

	if (fn == wqcompat_work_decl_trampoline)
		return w26_materialise(work);
	return w26_find(work);
}

/* ------------------------------------------------------------------ */
/* Initialisation: INIT_WORK, PREPARE_WORK (3 arguments) */

/**
 * wqcompat_init_work - bind a legacy handler to a work item (INIT_WORK)
 * @work: item, already initialised by __INIT_WORK with the trampoline
 * @func: legacy handler, called as func(data) in process context
 * @data: its argument
 * @owner: module whose handler this is (THIS_MODULE at the call site)
 *
 * Reuses the record already bound to this address, if any (an item freed
 * and allocated again at the same address).  Context: any; does not sleep
 * or allocate.  If the pool is empty, warns once; the item will not run.
 */
void wqcompat_init_work(struct work_struct *work, void (*func)(void *data),
			void *data, struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_find(work) ?: w26_take(work);
	if (rec) {
		/*
		 * 2.6 re-initialised an armed timer here and corrupted the
		 * timer list; stop it instead.  A timer callback already
		 * running waits for our lock and then queues the item anew.
		 */
		if (rec->armed && del_timer(&rec->timer))
			rec->armed = false;
		rec->func = func;
		rec->data = data;
		rec->owner = owner;
		rec->dying = false;
	}
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	if (!rec)
		w26_exhausted_warn(func, owner);
}
EXPORT_SYMBOL_GPL(wqcompat_init_work);

/**
 * wqcompat_prepare_work - change a work item's handler and data (PREPARE_WORK)
 * @work: item, initialised by INIT_WORK or DECLARE_WORK of either form
 * @func: new legacy handler
 * @data: its argument
 * @owner: module of the call site, used if the item had no record yet
 *
 * Changes only what the next run calls: the item's list linkage, PENDING
 * state and timer are untouched.  As on 2.6 it must not be used on a
 * queued item (the run then calls the old or the new pair, never a mix).
 * Context: any; does not sleep or allocate.
 */
void wqcompat_prepare_work(struct work_struct *work, void (*func)(void *data),
			   void *data, struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_get(work);
	if (!rec && !wqcompat_work_is_legacy(work)) {
		rec = w26_take(work);
		if (rec)
			rec->owner = owner;
	}
	if (rec) {
		rec->func = func;
		rec->data = data;
		WRITE_ONCE(work->func, wqcompat_work_trampoline);
	}
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	if (!rec)
		w26_exhausted_warn(func, owner);
}
EXPORT_SYMBOL_GPL(wqcompat_prepare_work);

/* ------------------------------------------------------------------ */
/* Running */

/**
 * wqcompat_work_trampoline - the work function of every legacy item
 * @work: the item being run by a workqueue worker
 *
 * Looks up the record and calls func(data).  The handler may free @work
 * (2.6 handlers often did): @work is not dereferenced after the call, only
 * the record, which is wqcompat's.  Context: workqueue worker.
 */
void wqcompat_work_trampoline(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	void (*func)(void *data);
	unsigned long flags;
	void *data;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_find(work);
	if (!rec || !rec->func) {
		w26_stats.orphans++;
		raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
		pr_err_ratelimited("wqcompat: legacy work %p has no handler record (pool exhausted?): not run\n",
				   work);
		return;
	}
	func = rec->func;
	data = rec->data;
	if (rec->queued > 0)
		rec->queued--;
	atomic_inc(&rec->running);
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);

	func(data);

	/*
	 * Can't dereference work after this point.  No lock: only
	 * w26_going_one() waits for zero, and nothing reuses a record whose
	 * @running is not.  A value-returning atomic is a full barrier, so
	 * the decrement is visible before wake_up_var() looks for the
	 * waiter of wait_var_event(); it uses the address only: @rec may
	 * already be back in the pool.
	 */
	if (atomic_dec_and_test(&rec->running))
		wake_up_var(&rec->running);
}
EXPORT_SYMBOL_GPL(wqcompat_work_trampoline);

/**
 * wqcompat_work_decl_trampoline - work function of a not yet used
 * 3-argument DECLARE_WORK item
 * @work: the item
 *
 * Every wqcompat call materialises such an item before queueing it, so this
 * runs only if the item reached a workqueue by a path that bypassed
 * <linux/workqueue.h>'s overlay; its handler is then unknown.
 * Context: a workqueue worker (process context).  Reports the item and
 * returns without running anything; waits for nothing.
 */
void wqcompat_work_decl_trampoline(struct work_struct *work)
{
	pr_err_ratelimited("wqcompat: DECLARE_WORK item %p queued without wqcompat: not run\n",
			   work);
}
EXPORT_SYMBOL_GPL(wqcompat_work_decl_trampoline);

/* ------------------------------------------------------------------ */
/* Queueing */

/**
 * wqcompat_queue_work_on - queue a legacy item (queue_work, queue_work_on)
 * @cpu: CPU, or WORK_CPU_UNBOUND
 * @wq: workqueue
 * @work: legacy item
 *
 * Return: true only if the item was newly queued; false if it was already
 * pending (queued, or its legacy timer armed), or is being cancelled by
 * cancel_rearming_delayed_work(), or its module is going away.
 * Context: any; does not sleep or allocate.
 */
bool wqcompat_queue_work_on(int cpu, struct workqueue_struct *wq,
			    struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;
	bool ret = false;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_get(work);
	if (!rec) {
		/* No record (pool exhausted): the trampoline will say so. */
		if (READ_ONCE(work->func) == wqcompat_work_trampoline)
			ret = (queue_work_on)(cpu, wq, work);
	} else if (!rec->cancelling && !rec->dying) {
		ret = (queue_work_on)(cpu, wq, work);
		if (ret)
			rec->queued++;
	}
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_queue_work_on);

/**
 * wqcompat_queue_delayed_work_on - 2.6 queue_delayed_work(_on) on a
 * struct work_struct
 * @cpu: CPU to queue on when the delay expires, or WORK_CPU_UNBOUND
 * @wq: workqueue
 * @work: item: legacy, or a modern work_struct (its own ->func runs)
 * @delay: jiffies; 0 queues at once, as 2.6.19 did
 * @owner: module of the call site, for a record created here
 *
 * Sets the item's PENDING bit and arms the record's timer; when it fires,
 * the item is queued on @wq.  Return: true only if newly armed (or, with
 * @delay 0, newly queued); false if already pending.
 * Context: any; does not sleep or allocate.
 */
bool wqcompat_queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
				    struct work_struct *work,
				    unsigned long delay, struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;
	bool ret = false;

	if (!delay)
		return __wqcompat_queue_work_on(cpu, wq, work);

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_get(work);
	if (!rec && !wqcompat_work_is_legacy(work)) {
		rec = w26_take(work);	/* timer-only record */
		if (rec)
			rec->owner = owner;
	}
	if (!rec) {
		raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
		WARN_ONCE(1, "wqcompat: no record for delayed work %p: not queued\n",
			  work);
		return false;
	}
	if (!rec->cancelling && !rec->dying &&
	    !test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))) {
		rec->wq = wq;
		rec->cpu = cpu;
		rec->armed = true;
		rec->timer.expires = jiffies + delay;
		if (cpu == WORK_CPU_UNBOUND)
			add_timer(&rec->timer);
		else
			add_timer_on(&rec->timer, cpu);
		ret = true;
	}
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_queue_delayed_work_on);

/*
 * The legacy timer: hand the item from "armed" to "queued".  PENDING is
 * cleared and set again by (queue_work_on)() inside one critical section of
 * the lock every wqcompat queueing call takes.  Timer (softirq) context,
 * interrupts off (TIMER_IRQSAFE).
 */
static void wqcompat_work26_timer_fn(struct timer_list *t)
{
	struct wqcompat_work26_rec *rec = from_timer(rec, t, timer);
	struct work_struct *work;

	raw_spin_lock(&wqcompat_work26_lock);
	if (rec->armed) {
		work = rec->work;
		rec->armed = false;
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
		if ((queue_work_on)(rec->cpu, rec->wq, work) && rec->func)
			rec->queued++;
	}
	raw_spin_unlock(&wqcompat_work26_lock);
}

/* ------------------------------------------------------------------ */
/* Cancelling */

/*
 * w26_stop_timer(rec) - del_timer_sync() and, if that stopped an armed
 * timer, take the item back to idle.  Returns true then.  Waits for a
 * running timer callback; the caller holds no lock.
 */
static bool w26_stop_timer(struct wqcompat_work26_rec *rec)
{
	unsigned long flags;
	bool stopped = false;

	if (del_timer_sync(&rec->timer)) {
		raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
		if (rec->armed) {
			rec->armed = false;
			clear_bit(WORK_STRUCT_PENDING_BIT,
				  work_data_bits(rec->work));
			stopped = true;
		}
		raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	}
	return stopped;
}

/**
 * wqcompat_cancel_delayed_work - 2.6 cancel_delayed_work(struct work_struct *)
 * @work: item
 *
 * Stops the item's legacy timer.  Does not wait for a running handler and
 * does not take the item off a workqueue: if the timer already fired, the
 * item is queued (and will run) when this returns, and a flush_workqueue()
 * that follows waits for it, as on 2.6.
 * Return: nonzero only if the timer was armed and is now stopped (the item
 * is then idle and not pending).
 * Context: any (the timer is irq-safe); waits only for a timer callback in
 * progress on another CPU, a few instructions.
 */
int wqcompat_cancel_delayed_work(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_find(work);
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	return rec ? w26_stop_timer(rec) : 0;
}
EXPORT_SYMBOL_GPL(wqcompat_cancel_delayed_work);

/**
 * wqcompat_cancel_rearming_delayed_work - cancel a legacy item for good
 * @work: item, possibly re-arming or re-queueing itself from its handler
 *
 * While this runs, every attempt to queue or arm the item returns 0.  It
 * stops the timer, takes the item off its workqueue and waits for a running
 * handler (cancel_work_sync()).  On return the item is idle.  Unlike
 * 2.6.19's loop, it also returns for an item that does not re-arm itself.
 * Context: process; sleeps.  Must not be called from the item's handler.
 */
void wqcompat_cancel_rearming_delayed_work(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec = w26_find(work);
	if (rec)
		rec->cancelling++;
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);

	if (rec)
		w26_stop_timer(rec);
	cancel_work_sync(work);
	if (!rec)
		return;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec->queued = 0;
	rec->cancelling--;
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
}
EXPORT_SYMBOL_GPL(wqcompat_cancel_rearming_delayed_work);

/* ------------------------------------------------------------------ */
/* Workqueue destruction and module unload */

/**
 * wqcompat_work26_drain_timers - queue now what legacy timers would queue
 * on @wq later
 * @wq: a workqueue about to be destroyed
 *
 * On 2.6 a timer armed towards a destroyed workqueue fired into freed
 * memory.  Here each such item is queued at once, so the flush that
 * destroy_workqueue() does runs it.  Context: process.
 */
void wqcompat_work26_drain_timers(struct workqueue_struct *wq)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;
	unsigned int early = 0;
	int bkt;

again:
	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	hash_for_each(w26_hash, bkt, rec, node) {
		if (!rec->armed || rec->wq != wq)
			continue;
		if (!del_timer(&rec->timer)) {
			/*
			 * The callback is running and spins on our lock:
			 * let it queue the item, then look again.
			 */
			raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
			cpu_relax();
			goto again;
		}
		rec->armed = false;
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(rec->work));
		if ((queue_work_on)(rec->cpu, wq, rec->work) && rec->func)
			rec->queued++;
		early++;
	}
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	if (early)
		pr_warn("wqcompat: destroy_workqueue(): %u legacy delayed work item(s) still armed, run now\n",
			early);
}

/*
 * w26_going_one(rec, mod) - make @rec's item idle: stop its timer, take it
 * off its workqueue, wait for its handler.  @rec is dying, so nothing can
 * queue it again through wqcompat.  Process context.
 */
static void w26_going_one(struct wqcompat_work26_rec *rec, struct module *mod)
{
	void (*func)(void *data) = rec->func;
	struct work_struct *work = rec->work;
	unsigned long flags;
	const char *what = NULL;
	int queued;

	if (w26_stop_timer(rec))
		what = "delayed work still armed: cancelled";

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	queued = rec->queued;
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	/* Queued means live: the item may be dereferenced. */
	if (queued > 0 && cancel_work_sync(work))
		what = what ?: "work still queued: cancelled";
	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	rec->queued = 0;
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);

	if (atomic_read(&rec->running)) {
		what = what ?: "handler still running: waited for it";
		wait_var_event(&rec->running, !atomic_read(&rec->running));
	}
	if (!what)
		return;
	w26_stats.going_cancelled++;
	if (work26_unload_warn)
		WARN(1, "wqcompat: module %s unloaded with legacy work %ps (item %p) pending: %s\n",
		     module_name(mod), func, work, what);
	else
		pr_warn("wqcompat: module %s unloaded with legacy work %ps (item %p) pending: %s\n",
			module_name(mod), func, work, what);
}

/**
 * wqcompat_work26_module_going - release everything of a departing module
 * @mod: module in MODULE_STATE_GOING (its exit ran; its memory is intact)
 *
 * Every record @mod owns: a timer still armed is stopped, a queued item is
 * cancelled, a running handler is waited for (each reported, naming the
 * module), and the record goes back to the pool.  An idle record's item is
 * not touched: it may be long freed.  Context: process; sleeps.
 */
void wqcompat_work26_module_going(struct module *mod)
{
	struct wqcompat_work26_rec *rec, *busy;
	struct hlist_node *tmp;
	unsigned long flags;
	int bkt;

	for (;;) {
		busy = NULL;
		raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
		hash_for_each_safe(w26_hash, bkt, tmp, rec, node) {
			if (rec->owner != mod)
				continue;
			rec->dying = true;
			if (rec->armed || rec->queued > 0 ||
			    atomic_read(&rec->running)) {
				busy = rec;
				break;
			}
			w26_release(rec);
		}
		raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
		if (!busy)
			break;
		w26_going_one(busy, mod);
	}
}

/* ------------------------------------------------------------------ */
/* debugfs: /sys/kernel/debug/wqcompat/work26 */

static int w26_stats_show(struct seq_file *m, void *v)
{
	unsigned int armed = 0, queued = 0, running = 0, bound = 0;
	struct wqcompat_work26_rec *rec;
	unsigned long flags;
	int bkt;

	raw_spin_lock_irqsave(&wqcompat_work26_lock, flags);
	hash_for_each(w26_hash, bkt, rec, node) {
		bound++;
		armed += rec->armed;
		queued += rec->queued > 0;
		running += atomic_read(&rec->running) > 0;
	}
	seq_printf(m, "records: %u\nfree: %u\nbound: %u\narmed: %u\nqueued: %u\nrunning: %u\n",
		   w26_stats.total, w26_stats.free, bound, armed, queued,
		   running);
	seq_printf(m, "exhausted: %lu\norphans: %lu\ngoing_cancelled: %lu\n",
		   w26_stats.exhausted, w26_stats.orphans,
		   w26_stats.going_cancelled);
	raw_spin_unlock_irqrestore(&wqcompat_work26_lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(w26_stats);

/* ------------------------------------------------------------------ */

/* Called by wqcompat_work26_init(): the first chunk of records. */
int wqcompat_work26_records_init(void)
{
	int ret;

	if (!work26_records)
		work26_records = 1;
	ret = w26_add_chunk(work26_records);
	if (ret)
		return ret;
	w26_debugfs = debugfs_create_file("work26", 0444, wqcompat_debugfs,
					  NULL, &w26_stats_fops);
	return 0;
}

/*
 * Called by wqcompat_work26_exit() once no module uses wqcompat: every
 * remaining record belongs to nobody that can still run.
 */
void wqcompat_work26_records_exit(void)
{
	struct w26_chunk *chunk, *tmp;
	unsigned int i;

	debugfs_remove(w26_debugfs);
	cancel_work_sync(&w26_refill_work);
	mutex_lock(&w26_chunks_mutex);
	list_for_each_entry_safe(chunk, tmp, &w26_chunks, node) {
		for (i = 0; i < chunk->nr; i++)
			del_timer_sync(&chunk->recs[i].timer);
		list_del(&chunk->node);
		kvfree(chunk);
	}
	mutex_unlock(&w26_chunks_mutex);
	hash_init(w26_hash);
	INIT_HLIST_HEAD(&w26_free);
	w26_stats.total = 0;
	w26_stats.free = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Where 2.6 work records come from, how an item is
 * bound to one, and how records of items that are gone come back.
 *
 * Theory
 * ------
 * Records live in chunks that are never freed while wqcompat.ko is loaded,
 * so a pointer into a chunk never dangles: a stale link in a dead item can
 * be looked at, only never trusted.  A chunk sits in one of WQCOMPAT_W26_SLOTS slots;
 * a bound item's ->entry.next holds its record's place as
 *
 *	link = index << 17 | slot << 1 | 1
 *
 * which decodes with two bounds checks and no dereference of anything the
 * item says (wqcompat_w26_link_rec()); bit 0 tells it from a list pointer the kernel
 * would have written there.  The item's ->entry.prev holds the binding's
 * cookie; the record holds both.  A link is trusted only if the record it
 * names is bound to this very item (wqcompat_w26_rec_of()); the cookie
 * tells a struct copy of an item from a stale one.  These decoders and the
 * queueing fast paths are inline, in <linux/wqcompat_work26.h>.
 *
 * Binding (w26_bind()) happens at an unbound item's first queueing, under
 * w26_lock: from the free list, never allocating under the lock.  A worker
 * keeps work26_reserve records free; a caller that finds none adds a chunk
 * itself where it may allocate (w26_may_alloc()); one that may not (hard
 * IRQ) has its item parked and queued by the worker (work26_park.c), so
 * that its queueing call still returns 1 and the item runs.
 *
 * Bound records are also hashed by item address: the slow path for an item
 * whose link the kernel overwrote (it was queued by a kernel function that
 * bypasses the overlay), and the way an item initialised again at the same
 * address (INIT_WORK into memory that held one) finds its old record.
 *
 * A record is released (back to the free list, its shadow initialised
 * anew) when its module goes away (work26_going.c) or when the reclaim pass
 * finds its item gone: the memory at the item's address no longer holds
 * this binding's link and cookie (freed and reused, a stack frame that
 * returned, or initialised again).  The pass reads that memory with
 * copy_from_kernel_nofault(), so a vanished stack or vmalloc page reads as
 * "gone", and releases only records whose shadow is idle.  A dead item whose
 * memory still holds the link keeps its record until the address is reused
 * or the module goes: the leak is bounded by memory freed and not reused.
 *
 * Locking: w26_lock, raw and irq-safe, protects the free list, the hash,
 * binding and unbinding, the going-module list (work26_going.c), the dying
 * queues (work26_queues.c) and W26_PLAIN state (work26_plain.c).  It is
 * never held across an allocation or a sleep; the kernel's queueing calls
 * may be made under it (their pool locks nest inside).
 */
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "wqcompat_hooks.h"
#include "wqcompat_kapi.h"
#include "work26_rec.h"
#include "work26_trace.h"

/* records added by a caller that may not sleep (GFP_NOWAIT): one order-3 allocation */
#define W26_NOWAIT_CHUNK 128
/* records added in atomic context (GFP_ATOMIC): one page */
#define W26_PAGE_CHUNK	((PAGE_SIZE - sizeof(struct wqcompat_w26_chunk)) / \
			 sizeof(struct wqcompat_work26_rec))
#define W26_MAX_CHUNK	65536		/* records in the largest chunk */

static unsigned int work26_reserve = 256;
module_param(work26_reserve, uint, 0644);
MODULE_PARM_DESC(work26_reserve,
		 "legacy work records kept free for callers that cannot allocate, such as hard IRQ (default 256)");

DEFINE_RAW_SPINLOCK(w26_lock);
struct w26_stats w26_stats;

/* Published once each; read by the overlay's inline fast paths. */
struct wqcompat_w26_chunk *wqcompat_w26_chunks[WQCOMPAT_W26_SLOTS];
EXPORT_SYMBOL_GPL(wqcompat_w26_chunks);
static unsigned int w26_nr_slots;		/* under w26_lock */

#define W26_HASH_BITS 14		/* 16384 buckets: slow paths only */
static DEFINE_HASHTABLE(w26_hash, W26_HASH_BITS);	/* bound, by item */
static struct wqcompat_work26_rec *w26_free;		/* free list */
static unsigned long w26_nr_free, w26_nr_total, w26_nr_bound;
static unsigned long w26_cookie;			/* last one given */

static void w26_refill_fn(struct work_struct *work);
static void w26_retry_fn(struct work_struct *work);
static DECLARE_WORK(w26_refill_work, w26_refill_fn);
static DECLARE_DELAYED_WORK(w26_retry_work, w26_retry_fn);
static struct dentry *w26_debugfs;

/* ------------------------------------------------------------------ */
/* Lookups */

struct wqcompat_work26_rec *w26_lookup_locked(struct work_struct *work,
					      enum w26_kind kind)
{
	struct wqcompat_work26_rec *rec;

	lockdep_assert_held(&w26_lock);
	/* A record being torn down is nobody's to find. */
	hash_for_each_possible(w26_hash, rec, hnode, (unsigned long)work)
		if (rec->item == work && rec->kind == kind &&
		    !rec->dying && !rec->releasing)
			return rec;
	return NULL;
}

/**
 * w26_lookup - the record of a kind bound to the address @work, by the hash
 * @work: any address
 * @kind: W26_LEGACY or W26_PLAIN
 *
 * The slow path, for an item whose link cannot be trusted.
 * Context: any; takes w26_lock.  Return: the record or NULL.
 */
struct wqcompat_work26_rec *w26_lookup(struct work_struct *work,
				       enum w26_kind kind)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	rec = w26_lookup_locked(work, kind);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return rec;
}

/* ------------------------------------------------------------------ */
/* Handler and data, as a pair */

/* The pair, or false if a writer is between its two stores.  Any context. */
static bool w26_try_get_handler(struct wqcompat_work26_rec *rec,
				void (**func)(void *data), void **data)
{
	unsigned int s = raw_read_seqcount(&rec->seq);

	if (s & 1)
		return false;
	*func = READ_ONCE(rec->func);
	*data = READ_ONCE(rec->data);
	return !read_seqcount_retry(&rec->seq, s);
}

/* ------------------------------------------------------------------ */
/* Chunks and the free list */

/* A record as it sits on the free list: its shadow ready to bind. */
static void w26_rec_fresh(struct wqcompat_work26_rec *rec)
{
	rec->item = NULL;
	rec->cookie = 0;
	rec->kind = W26_FREE;
	rec->dying = false;
	rec->releasing = false;
	rec->going_busy = 0;
	rec->owner = NULL;
	memset(rec->run_slots, 0, sizeof(rec->run_slots));
	atomic_set(&rec->run_overflow, 0);
	rec->hand_wq = NULL;
	rec->hand_task = NULL;
	rec->func = NULL;
	rec->data = NULL;
	INIT_DELAYED_WORK(&rec->dwork, w26_shadow_fn);
}

static void w26_push_free(struct wqcompat_work26_rec *rec)
{
	lockdep_assert_held(&w26_lock);
	rec->next_free = w26_free;
	w26_free = rec;
	w26_nr_free++;
}

/*
 * w26_add_chunk(nr, gfp) - allocate @nr records into the next slot and put
 * them on the free list.  Never called with w26_lock held.  Returns 0,
 * -ENOSPC (no slot left) or -ENOMEM.
 */
static int w26_add_chunk(unsigned int nr, gfp_t gfp)
{
	struct wqcompat_w26_chunk *chunk;
	unsigned long flags;
	unsigned int slot, i;

	/* Memory first: a slot is taken only for a chunk that exists. */
	if (gfpflags_allow_blocking(gfp))
		chunk = kvzalloc(struct_size(chunk, recs, nr), gfp);
	else
		chunk = kzalloc(struct_size(chunk, recs, nr), gfp);
	if (!chunk)
		return -ENOMEM;

	raw_spin_lock_irqsave(&w26_lock, flags);
	slot = w26_nr_slots;
	if (slot < WQCOMPAT_W26_SLOTS)
		w26_nr_slots++;
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (slot >= WQCOMPAT_W26_SLOTS) {
		kvfree(chunk);
		pr_warn_ratelimited("wqcompat: all %u chunk slots of legacy work records used\n",
				    WQCOMPAT_W26_SLOTS);
		return -ENOSPC;
	}
	chunk->nr = nr;
	for (i = 0; i < nr; i++) {
		struct wqcompat_work26_rec *rec = &chunk->recs[i];

		seqcount_init(&rec->seq);
		INIT_HLIST_NODE(&rec->hnode);
		rec->link = (unsigned long)i << (WQCOMPAT_W26_SLOT_BITS + 1) |
			    slot << 1 | 1;
		w26_rec_fresh(rec);
	}

	raw_spin_lock_irqsave(&w26_lock, flags);
	/*
	 * Publishes the chunk with its count and fresh records: the lockless
	 * wqcompat_w26_link_rec() reads the slot with READ_ONCE() and depends
	 * on that load for everything after it (address dependency).
	 */
	smp_store_release(&wqcompat_w26_chunks[slot], chunk);
	for (i = nr; i-- > 0;)
		w26_push_free(&chunk->recs[i]);
	w26_nr_total += nr;
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return 0;
}

/* Ask the worker for records if fewer than the reserve are free. */
static void w26_want_refill(void)
{
	lockdep_assert_held(&w26_lock);
	if (w26_nr_free < READ_ONCE(work26_reserve))
		queue_work_on(WORK_CPU_UNBOUND, system_unbound_wq,
			      &w26_refill_work);
}

/*
 * May a chunk be allocated here, and how?  Preemptible: GFP_NOWAIT, a
 * large chunk first.  A softirq or a spinlock held, interrupts on:
 * GFP_ATOMIC, one page, as a 2.6 driver's own kmalloc() there would.
 * Never in hard IRQ or with interrupts off (the slab's locks are not raw
 * ones: they sleep on PREEMPT_RT, and lockdep's wait-context check says
 * so on every kernel), nor on PREEMPT_RT with preemption off: there the
 * item is parked instead (work26_park.c).
 */
static bool w26_may_alloc(gfp_t *gfp)
{
	if (preemptible()) {
		*gfp = GFP_NOWAIT | __GFP_NOWARN;
		return true;
	}
	if (in_hardirq() || in_nmi() || irqs_disabled() ||
	    IS_ENABLED(CONFIG_PREEMPT_RT))
		return false;
	*gfp = GFP_ATOMIC | __GFP_NOWARN;
	return true;
}

/*
 * w26_pop_free() - a free record, or NULL.  When none is free, adds a
 * chunk first where the caller may allocate (w26_may_alloc()): a first
 * queueing from hard IRQ after a burst has used the reserve still gets a
 * record, as 2.6's queue_work() (which needed none) would have queued.
 * Takes w26_lock; the caller must not hold it.
 */
static struct wqcompat_work26_rec *w26_pop_free(void)
{
	static const unsigned int sizes[] = { W26_NOWAIT_CHUNK, W26_PAGE_CHUNK };
	/* atomic callers: one page only */
	unsigned int next = preemptible() ? 0 : 1;
	struct wqcompat_work26_rec *rec;
	unsigned long flags;
	gfp_t gfp;

	for (;;) {
		raw_spin_lock_irqsave(&w26_lock, flags);
		rec = w26_free;
		if (rec) {
			w26_free = rec->next_free;
			w26_nr_free--;
		}
		w26_want_refill();
		raw_spin_unlock_irqrestore(&w26_lock, flags);
		if (rec || next == ARRAY_SIZE(sizes) || !w26_may_alloc(&gfp))
			return rec;
		if (w26_add_chunk(sizes[next++], gfp) == -ENOSPC)
			return NULL;
	}
}

/* Put a record taken by w26_pop_free() and not bound back. */
void w26_unpop(struct wqcompat_work26_rec *rec)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	w26_push_free(rec);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}

/*
 * A free record for process context, allocating with GFP_KERNEL if none
 * is free.  Context: process; sleeps.  Return: the record, or NULL (no
 * memory).
 */
struct wqcompat_work26_rec *w26_pop_free_wait(void)
{
	struct wqcompat_work26_rec *rec = w26_pop_free();

	might_sleep();
	if (!rec && !w26_add_chunk(W26_NOWAIT_CHUNK, GFP_KERNEL))
		rec = w26_pop_free();
	return rec;
}

/* Have the worker refill the pool and queue parked items.  Any context. */
void w26_refill_soon(void)
{
	queue_work_on(WORK_CPU_UNBOUND, system_unbound_wq, &w26_refill_work);
}

/**
 * w26_refuse_exhausted - a queueing that no record could be had for, nor
 * the item parked: count and log it
 * @handler: the item's handler, for the log
 *
 * Context: any.
 */
void w26_refuse_exhausted(const void *handler)
{
	atomic_long_inc(&w26_stats.exhausted);
	pr_err_ratelimited("wqcompat: no legacy work record for %ps, and no memory nor park lane for it (%lu in use; wqcompat.work26_reserve=%u): not queued\n",
			   handler, READ_ONCE(w26_nr_bound),
			   READ_ONCE(work26_reserve));
}

/* ------------------------------------------------------------------ */
/* Binding */

#ifdef CONFIG_LOCKDEP
/* The class of items declared on the stack (their key would be the item). */
static struct lock_class_key w26_onstack_key;
#endif

/* The lockdep class of @work's initialisation, for its shadow. */
static void w26_copy_class(struct wqcompat_work26_rec *rec,
			   struct work_struct *work)
{
#ifdef CONFIG_LOCKDEP
	struct lockdep_map *map = &work->lockdep_map;
	struct lock_class_key *key = map->key;

	/*
	 * DECLARE_WORK keys an item's class by the item's address, a static
	 * object unless the item was declared inside a function: then one
	 * class for all of those.  The stack may be another task's (the item
	 * is first queued by a worker, or from an interrupt), so what is
	 * looked at is whether the key can be static at all: module data is
	 * neither in the vmalloc area (where stacks are, CONFIG_VMAP_STACK)
	 * nor in the linear map (where they are otherwise, and heap objects).
	 */
	if (key && (object_is_on_stack(key) || is_vmalloc_addr(key) ||
		    virt_addr_valid(key)))
		key = &w26_onstack_key;
	if (key && rec->dwork.work.lockdep_map.key != key)
		lockdep_init_map(&rec->dwork.work.lockdep_map, map->name,
				 key, 0);
#endif
}

/*
 * Bind @rec (in the hash for @work already, or fresh) to @work with @func
 * and @data: the record's side, which nothing reaches from the item yet.
 * Caller holds w26_lock.
 */
void w26_publish_rec(struct wqcompat_work26_rec *rec, struct work_struct *work,
		     struct module *owner, void (*func)(void *data), void *data)
{
	lockdep_assert_held(&w26_lock);
	if (rec->kind == W26_FREE) {
		rec->kind = W26_LEGACY;
		WRITE_ONCE(rec->item, work);
		hash_add(w26_hash, &rec->hnode, (unsigned long)work);
		w26_nr_bound++;
	}
	w26_copy_class(rec, work);
	WRITE_ONCE(rec->cookie, ++w26_cookie);
	wqcompat_w26_set_handler(rec, func, data);
	WRITE_ONCE(rec->owner, owner);
	WRITE_ONCE(rec->dying, false);
	atomic_long_inc(&w26_stats.binds);
	trace_wqcompat_work26_bind(work, &rec->dwork.work, &rec->dwork.timer,
				   (const void *)func);
}

/*
 * Then the item's side: the link the fast paths follow (@link), or an
 * empty list head for an item the kernel will queue itself, and ->func.
 * Caller holds w26_lock.
 */
void w26_publish_link(struct wqcompat_work26_rec *rec,
		      struct work_struct *work, bool link)
{
	lockdep_assert_held(&w26_lock);
	if (link) {
		/* The fast paths reach @rec through the link, lockless. */
		smp_wmb();
		WRITE_ONCE(work->entry.prev, (struct list_head *)rec->cookie);
		WRITE_ONCE(work->entry.next, (struct list_head *)rec->link);
	} else {
		/* The kernel will queue @work itself: keep it a list head. */
		INIT_LIST_HEAD(&work->entry);
	}
	/* Pairs with smp_load_acquire() of ->func in the fast paths. */
	smp_store_release(&work->func, wqcompat_work_trampoline);
}

/*
 * The record @work binds to now: the one an earlier binding left at this
 * address, else *@spare (taken).  Caller holds w26_lock.
 */
struct wqcompat_work26_rec *w26_rec_for(struct work_struct *work,
					struct wqcompat_work26_rec **spare)
{
	struct wqcompat_work26_rec *rec = w26_lookup_locked(work, W26_LEGACY);

	if (!rec) {
		rec = *spare;
		*spare = NULL;
	}
	return rec;
}

/**
 * w26_bind - the record of a legacy item whose link is not trusted
 * @work: legacy item: unbound, or bound with a link the kernel overwrote,
 *	or a copy of a bound item
 * @owner: module of the calling site
 *
 * An unbound item gets a record: the one an earlier binding left at this
 * address, else a free one; its handler and data move from ->entry into
 * the record and ->entry takes the link.  A bound item whose link the
 * kernel overwrote is found by address and left as it is (the kernel may
 * hold ->entry).  A copy of a bound item gets a record of its own with the
 * original's handler and data, as a struct copy did on 2.6.
 *
 * Context: any; takes w26_lock; never sleeps; allocates only where that
 * is allowed (w26_may_alloc()).  Return: the record; ERR_PTR(-ENOMEM) if
 * no record could be had (the caller parks the item: work26_park.c);
 * ERR_PTR(-EBUSY) if the item is parked (pending); or NULL with the reason
 * counted (and logged once): the module is going away, or the item's
 * handler is unknown.
 */
struct wqcompat_work26_rec *w26_bind(struct work_struct *work,
				     struct module *owner)
{
	struct wqcompat_work26_rec *rec = NULL, *spare = NULL, *orig;
	void (*func)(void *data);
	unsigned long flags;
	work_func_t fn;
	void *data;

again:
	raw_spin_lock_irqsave(&w26_lock, flags);
	fn = READ_ONCE(work->func);
	if (fn == wqcompat_work_trampoline) {
		/*
		 * A link that is not this item's makes it a struct copy of
		 * the item the link names, even at an address whose earlier
		 * item's record is still in the hash; only a link the kernel
		 * overwrote (a list pointer) sends to the hash.
		 */
		if ((unsigned long)READ_ONCE(work->entry.next) & 1)
			rec = wqcompat_w26_rec_of(work);
		else
			rec = w26_lookup_locked(work, W26_LEGACY);
		if (rec)
			goto out;
		/* A struct copy of a bound item: same handler, new record. */
		orig = wqcompat_w26_link_rec((unsigned long)READ_ONCE(work->entry.next));
		if (!orig || !READ_ONCE(orig->item) ||
		    orig->cookie != (unsigned long)READ_ONCE(work->entry.prev) ||
		    !w26_try_get_handler(orig, &func, &data)) {
			raw_spin_unlock_irqrestore(&w26_lock, flags);
			atomic_long_inc(&w26_stats.lost);
			pr_err_ratelimited("wqcompat: legacy work %p: its record is gone and its handler unknown (item overwritten?): not queued\n",
					   work);
			goto fail;
		}
	} else if (fn == wqcompat_work_unbound) {
		if (w26_is_parked(work)) {	/* pending: work26_park.c */
			raw_spin_unlock_irqrestore(&w26_lock, flags);
			rec = ERR_PTR(-EBUSY);
			goto fail;
		}
		func = (void (*)(void *))READ_ONCE(work->entry.next);
		data = READ_ONCE(work->entry.prev);
	} else {
		goto out;	/* not legacy: a racing PREPARE_WORK(w, f) */
	}
	if (w26_module_refused(owner, func, work)) {
		raw_spin_unlock_irqrestore(&w26_lock, flags);
		atomic_long_inc(&w26_stats.refused_going);
		goto fail;
	}
	rec = w26_rec_for(work, &spare);
	if (!rec) {
		raw_spin_unlock_irqrestore(&w26_lock, flags);
		spare = w26_pop_free();
		if (spare)
			goto again;
		rec = ERR_PTR(-ENOMEM);	/* the caller parks the item */
		goto fail;
	}
	w26_publish_rec(rec, work, owner, func, data);
	w26_publish_link(rec, work, true);
out:
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (spare)
		w26_unpop(spare);
	return rec;
fail:
	if (spare)
		w26_unpop(spare);
	return IS_ERR(rec) ? rec : NULL;
}

/**
 * w26_bind_unlinked - bind a legacy item that the kernel itself will queue
 * @work: legacy item inside a struct delayed_work given to the kernel's
 *	delayed-work API
 * @owner: module of the calling site
 *
 * Like w26_bind(), but ->entry becomes an empty list head, as the kernel
 * requires of an item it queues; every later call on @work finds the
 * record by address.  Only a link (bit 0 set) is replaced: any other value
 * is the kernel's, @work on a worklist or its timer's way there (queued
 * again while queued), and its neighbours point at it.
 * Context: any.  Return: the record or NULL.
 */
struct wqcompat_work26_rec *w26_bind_unlinked(struct work_struct *work,
					      struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	unsigned long flags;

	rec = w26_bind(work, owner);
	if (IS_ERR_OR_NULL(rec)) {
		if (PTR_ERR(rec) == -ENOMEM)
			w26_refuse_exhausted(READ_ONCE(work->entry.next));
		return NULL;
	}
	raw_spin_lock_irqsave(&w26_lock, flags);
	if ((unsigned long)READ_ONCE(work->entry.next) & 1)
		INIT_LIST_HEAD(&work->entry);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	return rec;
}

/**
 * w26_take - a free record for a modern item's legacy delayed call
 * @work: the modern item
 * @owner: module of the calling site
 * @kind: W26_PLAIN
 *
 * The record found in the hash for @work, or a free one hashed for it.
 * Context: any.  Return: the record, NULL if no free record could be had,
 * or ERR_PTR(-ESHUTDOWN) if the module is going away.
 */
struct wqcompat_work26_rec *w26_take(struct work_struct *work,
				     struct module *owner, enum w26_kind kind)
{
	struct wqcompat_work26_rec *rec, *spare;
	unsigned long flags;

	raw_spin_lock_irqsave(&w26_lock, flags);
	if (w26_module_refused(owner, NULL, work)) {
		raw_spin_unlock_irqrestore(&w26_lock, flags);
		atomic_long_inc(&w26_stats.refused_going);
		return ERR_PTR(-ESHUTDOWN);
	}
	rec = w26_lookup_locked(work, kind);
	if (rec)
		WRITE_ONCE(rec->owner, owner);	/* this caller's item now */
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (rec)
		return rec;
	spare = w26_pop_free();
	if (!spare) {
		atomic_long_inc(&w26_stats.exhausted);
		return NULL;
	}
	raw_spin_lock_irqsave(&w26_lock, flags);
	rec = w26_lookup_locked(work, kind);
	if (!rec && !w26_module_refused(owner, NULL, work)) {
		rec = spare;
		spare = NULL;
		rec->kind = kind;
		rec->owner = owner;
		WRITE_ONCE(rec->item, work);
		hash_add(w26_hash, &rec->hnode, (unsigned long)work);
		w26_nr_bound++;
		atomic_long_inc(&w26_stats.binds);
		atomic_inc(&wqcompat_plain_active);
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (spare)
		w26_unpop(spare);
	return rec;
}

/**
 * w26_unbind_locked - take a record away from its item
 * @rec: a bound record that its item can no longer reach (its module is
 *	going, or the item no longer holds its link)
 *
 * Caller holds w26_lock, in the same hold as the check that decided it,
 * so that no binding can pick @rec up in between.  w26_recycle() must
 * follow.
 */
void w26_unbind_locked(struct wqcompat_work26_rec *rec)
{
	lockdep_assert_held(&w26_lock);
	if (rec->kind != W26_FREE && rec->item) {
		hash_del(&rec->hnode);
		w26_nr_bound--;
		if (rec->kind == W26_PLAIN)
			atomic_dec(&wqcompat_plain_active);
	}
	WRITE_ONCE(rec->item, NULL);
	WRITE_ONCE(rec->cookie, 0);
}

/**
 * w26_recycle - put an unbound record back on the free list
 * @rec: a record w26_unbind_locked() took away
 *
 * Cancels the shadow (or the W26_PLAIN timer) and waits for it and for a
 * run of its handler by hand, then initialises it anew.  Context: process; sleeps.
 */
void w26_recycle(struct wqcompat_work26_rec *rec)
{
	unsigned long flags;

	cancel_delayed_work_sync(&rec->dwork);
	w26_wait_runs(rec);	/* and a run by hand */
	w26_rec_fresh(rec);

	raw_spin_lock_irqsave(&w26_lock, flags);
	w26_push_free(rec);
	raw_spin_unlock_irqrestore(&w26_lock, flags);
}

/* Records bound to an item now (a hint: it changes as soon as read). */
unsigned long w26_nr_bound_now(void)
{
	return READ_ONCE(w26_nr_bound);
}

/* ------------------------------------------------------------------ */
/* Walking the records */

void w26_for_each_rec(void (*fn)(struct wqcompat_work26_rec *rec, void *arg),
		      void *arg)
{
	unsigned int slot, i;

	might_sleep();
	for (slot = 0; slot < READ_ONCE(w26_nr_slots); slot++) {
		struct wqcompat_w26_chunk *chunk = READ_ONCE(wqcompat_w26_chunks[slot]);

		if (!chunk)
			continue;
		for (i = 0; i < chunk->nr; i++) {
			struct wqcompat_work26_rec *rec = &chunk->recs[i];

			if (READ_ONCE(rec->kind) != W26_FREE)
				fn(rec, arg);
		}
		cond_resched();
	}
}

/* ------------------------------------------------------------------ */
/* Reclaim: records of items that are gone */

/* The first words of a work_struct, as read from memory we may not own. */
struct w26_snap {
	unsigned long data;
	unsigned long next;
	unsigned long prev;
	unsigned long func;
};

static_assert(offsetof(struct work_struct, entry.next) ==
	      offsetof(struct w26_snap, next));
static_assert(offsetof(struct work_struct, entry.prev) ==
	      offsetof(struct w26_snap, prev));
static_assert(offsetof(struct work_struct, func) ==
	      offsetof(struct w26_snap, func));

/*
 * Does the memory at @rec->item still hold @rec's binding?  A page that is
 * gone reads as "no".  An item the kernel queued itself (link overwritten
 * by list pointers, ->func still the trampoline) counts as still there.
 */
static bool w26_item_there(struct wqcompat_work26_rec *rec,
			   struct work_struct *item, unsigned long cookie)
{
	struct w26_snap snap;

	if (copy_from_kernel_nofault(&snap, item, sizeof(snap)))
		return false;
	if (snap.func != (unsigned long)wqcompat_work_trampoline)
		return false;
	if (!(snap.next & 1))
		return true;
	return snap.next == rec->link && snap.prev == cookie;
}

/*
 * May @rec be released?  A legacy record: its item is gone (above).  A
 * plain record holds nothing while its shadow is idle and the item's
 * PENDING bit is clear: set, it is the record's to give back (the timer is
 * armed or about to be: w26_plain_queue() sets the bit before it takes the
 * record), or the kernel's (then the item is alive).
 */
static bool w26_rec_gone(struct wqcompat_work26_rec *rec,
			 struct work_struct *item, unsigned long cookie)
{
	unsigned long data;

	if (rec->kind != W26_PLAIN)
		return !w26_item_there(rec, item, cookie);
	if (copy_from_kernel_nofault(&data, &item->data, sizeof(data)))
		return true;
	return !(data & WORK_STRUCT_PENDING);
}

static void w26_reclaim_one(struct wqcompat_work26_rec *rec, void *arg)
{
	unsigned long *freed = arg, flags, cookie;
	struct work_struct *item;
	bool gone;

	item = READ_ONCE(rec->item);
	cookie = READ_ONCE(rec->cookie);
	if (!item || (work_busy)(&rec->dwork.work) ||
	    w26_runs_active(rec) ||
	    !w26_rec_gone(rec, item, cookie))
		return;
	wqcompat_test_delay(WQCOMPAT_HOOK_RECLAIM_GONE);
	/*
	 * Decide again under the lock, reading the item again: the lockless
	 * read may be stale.  Memory that looked gone may hold the item again
	 * (freed, then allocated at the same address with its old bytes, and
	 * INIT_WORK found the record through them), and a plain record may
	 * have been taken for a new timer.  Every binding, and every timer of
	 * a plain record, starts with a write the check below sees: a new
	 * cookie, the link in the item, or the PENDING bit.
	 */
	raw_spin_lock_irqsave(&w26_lock, flags);
	gone = rec->item == item && rec->cookie == cookie &&
	       !(work_busy)(&rec->dwork.work) &&
	       !w26_runs_active(rec) &&
	       !rec->dying && !rec->releasing &&
	       w26_rec_gone(rec, item, cookie);
	if (gone) {
		rec->releasing = true;
		w26_unbind_locked(rec);
	}
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (!gone)
		return;
	w26_recycle(rec);
	atomic_long_inc(&w26_stats.reclaimed);
	(*freed)++;
}

/* One pass over every record.  Process context.  Returns records freed. */
static unsigned long w26_reclaim(void)
{
	unsigned long freed = 0;

	w26_for_each_rec(w26_reclaim_one, &freed);
	return freed;
}

/*
 * The worker: keep the reserve free.  Records of items that are gone come
 * back first; only if that is not enough does the pool grow, by at least
 * half of what it has, so that passes stay rare as it grows.
 */
static void w26_refill_fn(struct work_struct *work)
{
	unsigned long flags, free, total;
	unsigned int nr;

	raw_spin_lock_irqsave(&w26_lock, flags);
	free = w26_nr_free;
	total = w26_nr_total;
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	if (free < READ_ONCE(work26_reserve) &&
	    total >= 2 * READ_ONCE(work26_reserve))
		free += w26_reclaim();
	if (free < READ_ONCE(work26_reserve)) {
		nr = clamp_t(unsigned long, total / 2,
			     READ_ONCE(work26_reserve), W26_MAX_CHUNK);
		if (w26_add_chunk(nr, GFP_KERNEL))
			pr_warn_ratelimited("wqcompat: cannot add %u legacy work records (%lu in use)\n",
					    nr, total - free);
	}
	w26_drain_parked();
	if (w26_any_parked())	/* no memory this time */
		queue_delayed_work(system_unbound_wq, &w26_retry_work, HZ / 10);
}

static void w26_retry_fn(struct work_struct *work)
{
	w26_refill_soon();
}

/* ------------------------------------------------------------------ */
/* debugfs: /sys/kernel/debug/wqcompat/work26 */

struct w26_census {
	unsigned long armed, queued, running, plain;
};

static void w26_count_one(struct wqcompat_work26_rec *rec, void *arg)
{
	struct w26_census *c = arg;
	unsigned int busy;

	c->plain += READ_ONCE(rec->kind) == W26_PLAIN;
	busy = (work_busy)(&rec->dwork.work);
	c->armed += timer_pending(&rec->dwork.timer);
	c->queued += (busy & WORK_BUSY_PENDING) &&
		     !timer_pending(&rec->dwork.timer);
	c->running += !!(busy & WORK_BUSY_RUNNING);
}

static int w26_stats_show(struct seq_file *m, void *v)
{
	struct w26_census c = {};
	unsigned long flags, total, free, bound;

	w26_for_each_rec(w26_count_one, &c);
	raw_spin_lock_irqsave(&w26_lock, flags);
	total = w26_nr_total;
	free = w26_nr_free;
	bound = w26_nr_bound;
	raw_spin_unlock_irqrestore(&w26_lock, flags);
	seq_printf(m, "records: %lu\nfree: %lu\nbound: %lu\n", total, free,
		   bound);
	seq_printf(m, "armed: %lu\nqueued: %lu\nrunning: %lu\nplain: %lu\n",
		   c.armed, c.queued, c.running, c.plain);
	seq_printf(m, "record_bytes: %zu\n",
		   sizeof(struct wqcompat_work26_rec));
#define W26_STAT(name) \
	seq_printf(m, #name ": %ld\n", atomic_long_read(&w26_stats.name))
	W26_STAT(binds);
	W26_STAT(exhausted);
	W26_STAT(parked);
	W26_STAT(refused_going);
	W26_STAT(refused_destroy);
	W26_STAT(behind_back);
	W26_STAT(lost);
	W26_STAT(reclaimed);
	W26_STAT(going_cancelled);
	W26_STAT(self_flushes);
#undef W26_STAT
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(w26_stats);

/*
 * Also in sysfs, where a test can reach them (debugfs files do not support
 * kernel_read()): records bound now (read-only), and a reclaim pass on
 * demand (write anything; the pool runs one by itself when it runs low).
 */
static int w26_bound_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(w26_nr_bound));
}

static const struct kernel_param_ops w26_bound_ops = {
	.get = w26_bound_get,
};
module_param_cb(work26_bound, &w26_bound_ops, NULL, 0444);
MODULE_PARM_DESC(work26_bound, "legacy work records bound to an item now (read-only)");

/*
 * Queueings refused for want of a record, and legacy items that could
 * not run (their handler unknown): the losses a test asserts stayed 0.
 */
static int w26_stat_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(kp->arg));
}

static const struct kernel_param_ops w26_stat_ops = {
	.get = w26_stat_get,
};
module_param_cb(work26_exhausted, &w26_stat_ops, &w26_stats.exhausted, 0444);
MODULE_PARM_DESC(work26_exhausted, "legacy queueings refused: no record could be had (read-only)");
module_param_cb(work26_lost, &w26_stat_ops, &w26_stats.lost, 0444);
MODULE_PARM_DESC(work26_lost, "legacy items that could not run: handler unknown (read-only)");
module_param_cb(work26_parked, &w26_stat_ops, &w26_stats.parked, 0444);
MODULE_PARM_DESC(work26_parked, "first legacy queueings parked for want of a record where none may be allocated (read-only)");

static int w26_reclaim_set(const char *val, const struct kernel_param *kp)
{
	w26_reclaim();
	return 0;
}

static const struct kernel_param_ops w26_reclaim_ops = {
	.set = w26_reclaim_set,
};
module_param_cb(work26_reclaim, &w26_reclaim_ops, NULL, 0200);
MODULE_PARM_DESC(work26_reclaim, "write anything: give back now the records of items that are gone");

/* ------------------------------------------------------------------ */

/**
 * wqcompat_work26_pool_init - the first records and the debugfs files
 *
 * Context: module init.  Return: 0 or -ENOMEM.
 */
int wqcompat_work26_pool_init(void)
{
	int ret;

	ret = w26_add_chunk(max(work26_reserve, 1U) * 2, GFP_KERNEL);
	if (ret)
		return ret;
	w26_debugfs = debugfs_create_file("work26", 0444, wqcompat_debugfs,
					  NULL, &w26_stats_fops);
	return 0;
}

/*
 * Every module that used the layer is gone: every record is idle.  Free
 * the chunks.  Context: module exit.
 */
void wqcompat_work26_pool_exit(void)
{
	unsigned int slot;

	debugfs_remove(w26_debugfs);
	cancel_delayed_work_sync(&w26_retry_work);
	cancel_work_sync(&w26_refill_work);
	for (slot = 0; slot < WQCOMPAT_W26_SLOTS; slot++) {
		struct wqcompat_w26_chunk *chunk = wqcompat_w26_chunks[slot];
		unsigned int i;

		if (!chunk)
			continue;
		for (i = 0; i < chunk->nr; i++)
			cancel_delayed_work_sync(&chunk->recs[i].dwork);
		wqcompat_w26_chunks[slot] = NULL;
		kvfree(chunk);
	}
	hash_init(w26_hash);
	w26_free = NULL;
	w26_nr_slots = 0;
	w26_nr_free = w26_nr_total = w26_nr_bound = 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the 2.6 workqueue layer (compat/work26*.c): the record kept
 * for each legacy work item, and the pool it comes from.  See
 * compat/work26.c for the theory and docs/compat-workqueue-2.6.md for an
 * item's life.
 */
#ifndef _WQCOMPAT_WORK26_REC_H
#define _WQCOMPAT_WORK26_REC_H

#include <linux/list.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "include/linux/workqueue.h"
#include "include/linux/wqcompat_work26.h"
#include "wqcompat_kapi.h"

struct module;

enum w26_kind {
	W26_FREE,	/* on the free list */
	W26_LEGACY,	/* a legacy item's shadow */
	W26_PLAIN,	/* a legacy delayed call's timer on a modern item */
};

/* struct wqcompat_work26_rec and the chunk table: <linux/wqcompat_work26.h> */

/* work26_pool.c: the pool, binding, reclaim, lookup by address */
extern raw_spinlock_t w26_lock;
struct wqcompat_work26_rec *w26_bind(struct work_struct *work,
				     struct module *owner);
struct wqcompat_work26_rec *w26_lookup(struct work_struct *work,
				       enum w26_kind kind);
/* The same, with w26_lock held. */
struct wqcompat_work26_rec *w26_lookup_locked(struct work_struct *work,
					      enum w26_kind kind);
struct wqcompat_work26_rec *w26_take(struct work_struct *work,
				     struct module *owner, enum w26_kind kind);
struct wqcompat_work26_rec *w26_bind_unlinked(struct work_struct *work,
					      struct module *owner);
void w26_unbind_locked(struct wqcompat_work26_rec *rec);
void w26_recycle(struct wqcompat_work26_rec *rec);
unsigned long w26_nr_bound_now(void);
void w26_publish_rec(struct wqcompat_work26_rec *rec, struct work_struct *work,
		     struct module *owner, void (*func)(void *data), void *data);
void w26_publish_link(struct wqcompat_work26_rec *rec,
		      struct work_struct *work, bool link);
struct wqcompat_work26_rec *w26_rec_for(struct work_struct *work,
					struct wqcompat_work26_rec **spare);
struct wqcompat_work26_rec *w26_pop_free_wait(void);
void w26_unpop(struct wqcompat_work26_rec *rec);
void w26_refill_soon(void);
void w26_refuse_exhausted(const void *handler);
unsigned long w26_nr_bound_now(void);
void w26_shadow_fn(struct work_struct *shadow);

/*
 * The pair a run calls now (the writer is wqcompat_w26_set_handler()).
 * Process context: a writer interrupted on this CPU would make a reader in
 * an interrupt wait forever; interrupt context uses w26_try_get_handler().
 */
static inline void w26_get_handler(struct wqcompat_work26_rec *rec,
				   void (**func)(void *data), void **data)
{
	unsigned int s;

	do {
		s = read_seqcount_begin(&rec->seq);
		*func = READ_ONCE(rec->func);
		*data = READ_ONCE(rec->data);
	} while (read_seqcount_retry(&rec->seq, s));
}

/* wqcompat_work26_rec.runs: runs in progress, and one run finished */
#define W26_RUN_ACTIVE	0xffffffffUL
#define W26_RUN_DONE	(1UL << 32)

/*
 * Is a worker's run of @rec on @wq in progress?  Its slot, with the count
 * of runs that slot saw end in @ended (the run is over once that moves),
 * or -1.  Any context.
 */
static inline int w26_run_slot_on(struct wqcompat_work26_rec *rec,
				  struct workqueue_struct *wq,
				  unsigned long *ended)
{
	struct wqcompat_w26_run_slot *slot;
	unsigned long e;
	int i;

	for (i = 0; i < WQCOMPAT_W26_RUN_SLOTS; i++) {
		slot = &rec->run_slots[i];
		/* a seqcount: the slot's owner moves @ended, then frees it */
		e = smp_load_acquire(&slot->ended);
		if (READ_ONCE(slot->wq) != wq)
			continue;
		smp_rmb();	/* @wq read before @ended again */
		if (READ_ONCE(slot->ended) == e) {
			*ended = e;
			return i;
		}
	}
	return -1;
}

/*
 * Is a worker's run of @rec on @wq in progress, or may one be (more runs
 * than slots)?  Any context.
 */
static inline bool w26_run_on(struct wqcompat_work26_rec *rec,
			      struct workqueue_struct *wq)
{
	unsigned long ended;

	return w26_run_slot_on(rec, wq, &ended) >= 0 ||
	       atomic_read(&rec->run_overflow);
}

/* Runs of @rec's handler in progress, by a worker or by hand. */
static inline unsigned long w26_runs_active(struct wqcompat_work26_rec *rec)
{
	return atomic_long_read(&rec->runs) & W26_RUN_ACTIVE;
}

/* The workqueue of a pool_workqueue (wqcompat_kapi.h); under RCU. */
static inline struct workqueue_struct *w26_pwq_wq(void *pwq)
{
	return READ_ONCE(((struct wqcompat_pwq_head *)pwq)->wq);
}

/*
 * The pool_workqueue @work is queued on (not armed: a timer holds PENDING
 * without naming one), or NULL.  Any context.
 */
static inline void *w26_work_queued_pwq(struct work_struct *work)
{
	unsigned long data = atomic_long_read(&work->data);

	if ((data & (WORK_STRUCT_PENDING | WORK_STRUCT_PWQ)) !=
	    (WORK_STRUCT_PENDING | WORK_STRUCT_PWQ))
		return NULL;
	return (void *)(data & WORK_STRUCT_PWQ_MASK);
}

/* The pool_workqueue @rec's shadow is queued on, or NULL. */
static inline void *w26_queued_pwq(struct wqcompat_work26_rec *rec)
{
	return w26_work_queued_pwq(&rec->dwork.work);
}

/* work26_run.c: an item's run, and the caller's own */
void w26_run_end(struct wqcompat_work26_rec *rec, bool ran);
struct wqcompat_work26_rec *w26_current_rec(void);
unsigned long w26_own_runs(struct wqcompat_work26_rec *rec);
bool w26_runs_over(struct wqcompat_work26_rec *rec, u32 done,
		   unsigned long active, unsigned long own);
bool w26_wait_runs(struct wqcompat_work26_rec *rec);
void *w26_worker_pwq(bool legacy);
struct workqueue_struct *w26_worker_wq(bool legacy);
bool w26_worker_layout_ok(struct workqueue_struct *wq);

enum w26_hand {
	W26_HAND_NOT_HERE,	/* not queued on that pool_workqueue now */
	W26_HAND_TAKEN,		/* off its queue, counted: run it */
	W26_HAND_BUSY,		/* a worker runs it there: it was not taken */
};
enum w26_hand w26_hand_take(struct wqcompat_work26_rec *rec, void *pwq,
			    struct workqueue_struct *wq);
void w26_hand_run(struct wqcompat_work26_rec *rec, const void *item);

bool w26_module_refused(struct module *owner, void (*func)(void *data),
			struct work_struct *item);
int wqcompat_work26_pool_init(void);
void wqcompat_work26_pool_exit(void);

/*
 * Visit every record not on the free list.  Records are never freed while
 * wqcompat.ko is loaded, so @fn may look at any field; it takes w26_lock
 * to act.  Process context.
 */
void w26_for_each_rec(void (*fn)(struct wqcompat_work26_rec *rec, void *arg),
		      void *arg);

/* Counters for debugfs (work26_pool.c), all monotonic. */
struct w26_stats {
	atomic_long_t binds;		/* records bound to an item */
	atomic_long_t reuses;		/* INIT_WORK kept an item's record */
	atomic_long_t exhausted;	/* queueings refused: no free record */
	atomic_long_t parked;		/* first queueings parked (hard IRQ) */
	atomic_long_t refused_going;	/* queueings refused: module going */
	atomic_long_t refused_destroy;	/* re-arms refused: queue destroyed */
	atomic_long_t behind_back;	/* items the kernel ran itself */
	atomic_long_t lost;		/* ... whose handler was unknown */
	atomic_long_t reclaimed;	/* records of items no longer there */
	atomic_long_t going_cancelled;	/* items cancelled at module unload */
	atomic_long_t self_flushes;	/* flushes from a handler on its queue */
};
extern struct w26_stats w26_stats;

/* work26_plain.c: legacy delayed calls on a modern work_struct */
bool w26_plain_queue(int cpu, struct workqueue_struct *wq,
		     struct work_struct *work, unsigned long delay,
		     struct module *owner);
void w26_plain_run(struct wqcompat_work26_rec *rec);
int w26_plain_cancel_timer(struct work_struct *work);
bool w26_plain_cancel(struct work_struct *work, bool sync);
bool w26_plain_flush(struct work_struct *work);
unsigned int w26_plain_busy(struct work_struct *work);

/* work26_queues.c */
bool w26_wq_dying(struct workqueue_struct *wq);
void w26_refuse_destroyed(const void *handler);
bool w26_in_events(void);

/* work26_park.c: first queueings that no record could be had for */
#define W26_PARK_BITS	7UL
#define W26_PARKED	(WORK_STRUCT_PENDING | 2UL)

/* Is @work, unbound, parked (work26_park.c)?  Any context. */
static inline bool w26_is_parked(struct work_struct *work)
{
	return (atomic_long_read(&work->data) & W26_PARK_BITS) == W26_PARKED;
}

int w26_park(struct work_struct *work, struct module *owner,
	     struct workqueue_struct *wq, int cpu, unsigned long delay);
bool w26_unpark(struct work_struct *work, bool delayed_only);
void w26_drain_parked(void);
bool w26_any_parked(void);
unsigned int w26_park_going(struct module *mod);

/* work26_flush.c; its queue for the kernel's flushes (work26_queues.c) */
extern struct workqueue_struct *w26_flush_wq;
void w26_flush_self(struct workqueue_struct *wq, void *own);
void w26_run_behind_on(struct workqueue_struct *wq);

/* work26_going.c */
struct w26_going {
	struct list_head node;
	struct module *mod;
};

#endif /* _WQCOMPAT_WORK26_REC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqport: the record behind a 2.6 work item, and the inline fast paths of
 * the <linux/workqueue.h> overlay.  Not for drivers to use directly: the
 * overlay includes it so that queueing a bound legacy item costs one call,
 * the kernel's own queue_work_on() of its shadow, as for a native item.
 * compat/work26_pool.c owns everything here and explains it.
 */
#ifndef _WQCOMPAT_WORK26_H
#define _WQCOMPAT_WORK26_H

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/preempt.h>
#include <linux/seqlock.h>
#include <linux/types.h>

struct module;
struct task_struct;

/* Workers' runs of one record on different queues at once, named. */
#define WQCOMPAT_W26_RUN_SLOTS	3

struct wqcompat_w26_run_slot {
	struct workqueue_struct *wq;	/* NULL: free */
	unsigned long ended;		/* runs in this slot that ended */
};

/**
 * struct wqcompat_work26_rec - what 2.6 kept inside struct work_struct
 * @item:	the driver's work_struct bound to this record, or NULL;
 *		written under w26_lock, read locklessly by the fast paths
 * @run_slots:	the workqueue of each worker's run in progress, one slot
 *		per run, and how many runs each slot saw end (work26_run.c):
 *		a flush from another handler of that queue waits for that
 *		run, and for none on other queues
 * @run_overflow: workers' runs in progress that found no free slot (on
 *		more queues at once than there are slots)
 * @hand_wq:	the workqueue a run by hand took it from
 * @runs:	runs of the handler in progress (low 32 bits), by a worker or
 *		by hand (a flush from a handler on its own queue runs items
 *		in itself), and runs finished (high 32 bits, wrapping): one
 *		atomic add at each end of a run (work26_run.c)
 * @waiters:	tasks in w26_wait_runs(): a run that ends wakes them
 * @hand_task:	the task running it by hand, if any (set under w26_lock); a
 *		worker given the item meanwhile waits until it is clear
 * @dying:	queueing refused: the owner module is going away.  The fast
 *		paths read it with preemption off; unload waits for them with
 *		synchronize_rcu() before it cancels (work26_going.c)
 * @kind:	enum w26_kind (work26_rec.h)
 * @releasing:	claimed by whoever will put it back on the free list
 * @going_busy:	work_busy() of the shadow when its module's unload marked it
 *		dying, for the report (work26_going.c)
 * @seq:	@func and @data change as a pair
 * @func:	legacy handler (W26_LEGACY)
 * @data:	its argument
 * @cookie:	this binding's number, also in @item->entry.prev while bound
 * @owner:	module of the call that bound or last initialised the item
 * @link:	the value of @item->entry.next while bound (constant)
 * @hnode:	in the hash by item address while bound
 * @next_free:	on the free list
 * @dwork:	the shadow: the only work item the kernel sees
 */
struct wqcompat_work26_rec {
	struct work_struct *item;
	struct wqcompat_w26_run_slot run_slots[WQCOMPAT_W26_RUN_SLOTS];
	atomic_t run_overflow;
	struct workqueue_struct *hand_wq;
	atomic_long_t runs;
	atomic_t waiters;
	struct task_struct *hand_task;
	bool dying;
	u8 kind;
	bool releasing;
	u8 going_busy;
	seqcount_t seq;
	void (*func)(void *data);
	void *data;
	unsigned long cookie;
	struct module *owner;
	unsigned long link;
	struct hlist_node hnode;
	struct wqcompat_work26_rec *next_free;
	struct delayed_work dwork;
};

/*
 * Records live in chunks that are never freed while wqcompat.ko is loaded;
 * a chunk sits in one of WQCOMPAT_W26_SLOTS slots, published once.  A bound
 * item's ->entry.next is its record's link:
 *
 *	link = index << 17 | slot << 1 | 1
 *
 * decoded with bounds checks only, so that memory which merely once held
 * an item (INIT_WORK's input may be anything) is never dereferenced.
 */
#define WQCOMPAT_W26_SLOT_BITS	15
#define WQCOMPAT_W26_SLOTS	(1 << WQCOMPAT_W26_SLOT_BITS)

struct wqcompat_w26_chunk {
	unsigned int nr;
	struct wqcompat_work26_rec recs[];
};

extern struct wqcompat_w26_chunk *wqcompat_w26_chunks[WQCOMPAT_W26_SLOTS];

static __always_inline struct wqcompat_work26_rec *
wqcompat_w26_link_rec(unsigned long link)
{
	unsigned long slot = (link >> 1) & (WQCOMPAT_W26_SLOTS - 1);
	unsigned long idx = link >> (WQCOMPAT_W26_SLOT_BITS + 1);
	struct wqcompat_w26_chunk *chunk;

	if (!(link & 1))
		return NULL;
	chunk = READ_ONCE(wqcompat_w26_chunks[slot]);
	if (!chunk || idx >= chunk->nr)
		return NULL;
	return &chunk->recs[idx];
}

/*
 * The record @work is bound to, if its link is intact: @work's ->func was
 * read as wqcompat_work_trampoline.  Any context, lockless.
 */
static __always_inline struct wqcompat_work26_rec *
wqcompat_w26_rec_of(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec;

	rec = wqcompat_w26_link_rec((unsigned long)READ_ONCE(work->entry.next));
	if (unlikely(!rec) || READ_ONCE(rec->item) != work)
		return NULL;
	return rec;
}

/* Change what the next run calls, as a pair.  Any context. */
static __always_inline void
wqcompat_w26_set_handler(struct wqcompat_work26_rec *rec,
			 void (*func)(void *data), void *data)
{
	preempt_disable();
	raw_write_seqcount_begin(&rec->seq);
	WRITE_ONCE(rec->func, func);
	WRITE_ONCE(rec->data, data);
	raw_write_seqcount_end(&rec->seq);
	preempt_enable();
}

#endif /* _WQCOMPAT_WORK26_H */

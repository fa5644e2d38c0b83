/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the 2.6 workqueue layer (compat/work26*.c): the side record
 * kept for each legacy work item.  See compat/work26.c for the theory.
 */
#ifndef _WQCOMPAT_WORK26_REC_H
#define _WQCOMPAT_WORK26_REC_H

#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "include/linux/workqueue.h"

struct module;

/**
 * struct wqcompat_work26_rec - what 2.6 kept inside struct work_struct
 * @node:	in the hash (keyed by @work) while bound, on the free list else
 * @work:	the work item this record describes (its address is the key;
 *		dereferenced only while @armed, @queued or @running say it is
 *		live, or by a call that the driver made on it)
 * @func:	legacy handler, or NULL for a timer-only record (a modern
 *		work_struct given to a legacy delayed call)
 * @data:	argument for @func
 * @owner:	module that initialised the item (THIS_MODULE at the call)
 * @timer:	legacy delayed queueing; TIMER_IRQSAFE
 * @wq:		workqueue @timer queues @work on
 * @cpu:	CPU @timer queues @work on (WORK_CPU_UNBOUND: any)
 * @armed:	@timer was added and neither fired nor was deleted; the
 *		work's own PENDING bit is set for as long
 * @queued:	times @work was queued by wqcompat and its trampoline has not
 *		started yet (0 or 1 while the driver uses only wqcompat calls)
 * @running:	trampoline calls of @func in progress; raised under the
 *		lock, lowered without it (the trampoline's only write after
 *		the handler), so read it with atomic_read()
 * @cancelling:	cancel_rearming_delayed_work() calls in progress: refuse
 *		to queue or arm
 * @dying:	@owner is going away: refuse to queue or arm, for good
 *
 * All fields but @timer and the decrement of @running are protected by
 * wqcompat_work26_lock.
 */
struct wqcompat_work26_rec {
	struct hlist_node node;
	struct work_struct *work;
	void (*func)(void *data);
	void *data;
	struct module *owner;
	struct timer_list timer;
	struct workqueue_struct *wq;
	int cpu;
	bool armed;
	int queued;
	atomic_t running;
	int cancelling;
	bool dying;
};

extern raw_spinlock_t wqcompat_work26_lock;

/* The 2.6 "events" queue (keventd): owned by wqcompat, never system_wq. */
extern struct workqueue_struct *wqcompat_events_wq;

/* work26.c */
void wqcompat_work26_drain_timers(struct workqueue_struct *wq);
int wqcompat_work26_records_init(void);
void wqcompat_work26_records_exit(void);

#endif /* _WQCOMPAT_WORK26_REC_H */

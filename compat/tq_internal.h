/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the 2.4 task-queue files of wqcompat.ko:
 * tqueue.c (queues), bh.c (bottom halves), keventd.c (schedule_task),
 * tq_module.c (bring-up, unload of other modules, debugfs).
 */
#ifndef _WQCOMPAT_TQ_INTERNAL_H
#define _WQCOMPAT_TQ_INTERNAL_H

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>
#include <linux/wait.h>
/* The overlay, for the BH numbers; the kernel's header is included first. */
#include <linux/interrupt.h>
#include "include/linux/interrupt.h"

/*
 * The one lock of the task-queue layer (2.4's tqueue_lock).  Raw, because
 * queue_task() and mark_bh() are promised to hard-IRQ context, also on
 * PREEMPT_RT.  Taken with interrupts off; held only for list surgery and
 * pointer reads, never around a routine.  It protects: the links of every
 * queued tq_struct on any task_queue (driver-private queues included), the
 * BH slot table, and the list of runs in progress.
 */
extern raw_spinlock_t wqcompat_tq_lock;

/* Per-queue counters, all monotonic (debugfs: wqcompat/tqueue). */
struct wqcompat_tq_stats {
	atomic_long_t queued;	/* queue_task() returned 1 */
	atomic_long_t requeued;	/* queue_task() returned 0: already queued */
	atomic_long_t run;	/* routines called */
	atomic_long_t flushed;	/* run_task_queue() passes that found work */
	atomic_long_t dropped;	/* taken off at another module's unload */
};

enum wqcompat_tq_id {
	WQCOMPAT_TQ_TIMER,
	WQCOMPAT_TQ_IMMEDIATE,
	WQCOMPAT_TQ_DISK,
	WQCOMPAT_TQ_CONTEXT,	/* schedule_task()'s private queue */
	WQCOMPAT_TQ_OTHER,	/* every driver-private queue, together */
	WQCOMPAT_TQ_NR
};

extern struct wqcompat_tq_stats wqcompat_tq_stats[WQCOMPAT_TQ_NR];
extern const char *const wqcompat_tq_names[WQCOMPAT_TQ_NR];
extern task_queue wqcompat_tq_context;

/* Module parameters (tq_module.c). */
extern unsigned int wqcompat_tq_disk_delay_ms;
extern bool wqcompat_tq_misuse_warn;
extern atomic_long_t wqcompat_tq_misuse;

/*
 * Report a driver's misuse of the API: WARN (default) or, with the module
 * parameter misuse_warn=0, one error line without a backtrace (for test
 * runs that provoke the misuse on purpose).  Counted in debugfs either way.
 */
#define wqcompat_tq_complain(fmt, ...)					\
	do {								\
		atomic_long_inc(&wqcompat_tq_misuse);			\
		if (READ_ONCE(wqcompat_tq_misuse_warn))			\
			WARN(1, "wqcompat: " fmt, ##__VA_ARGS__);	\
		else							\
			pr_err("wqcompat: " fmt, ##__VA_ARGS__);	\
	} while (0)

/*
 * A module being unloaded (tq_module.c), from the moment it is on the
 * going list: no run calls a task of @mod any more; a run that comes to
 * one takes it off instead, counted in @per_queue.  On the stack of the
 * unloading thread; list and counts under wqcompat_tq_lock.
 */
struct wqcompat_tq_going {
	struct list_head node;
	struct module *mod;
	unsigned int per_queue[WQCOMPAT_TQ_NR];	/* tasks taken off */
	unsigned int bhs;			/* BH slots emptied or refused */
};

/* tq_module.c, for main.c's unload of a module */
void wqcompat_tq_going_begin(struct wqcompat_tq_going *going,
			     struct module *mod);
bool wqcompat_tq_going_round(struct wqcompat_tq_going *going, bool first);
void wqcompat_tq_going_end(struct wqcompat_tq_going *going, int rounds);

/* tqueue.c */
int wqcompat_tq_queues_init(void);
void wqcompat_tq_queues_exit(void);
void wqcompat_tq_timer_bh(void);
void wqcompat_tq_immediate_bh(void);
void wqcompat_tq_going_add(struct wqcompat_tq_going *going);
void wqcompat_tq_going_del(struct wqcompat_tq_going *going);
bool wqcompat_tq_going_refuse_bh(void (*routine)(void));
unsigned int wqcompat_tq_drop_module(struct wqcompat_tq_going *going,
				     bool *running);
void wqcompat_tq_wait_module_runs(struct module *mod);

/* bh.c; wqcompat_*_drop_module() are called under wqcompat_tq_lock */
int wqcompat_bh_init(void);
void wqcompat_bh_exit(void);
unsigned int wqcompat_bh_drop_module(struct module *mod);
void wqcompat_bh_flush(void);
extern const struct file_operations *wqcompat_bh_fops;

/* keventd.c */
int wqcompat_keventd_init(void);
void wqcompat_keventd_exit(void);
extern atomic_long_t wqcompat_keventd_flushes;

/* work26_queues.c: the caller runs a 2.6 handler on the events queue */
bool w26_in_events(void);

#endif /* _WQCOMPAT_TQ_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel APIs wqcompat.ko uses that changed
 * after 6.1, under their newest names, in the style of Linux backports'
 * backport-include: the shim's files call the new name, and on a kernel
 * that predates it this header maps it onto the old one.  One place to
 * look when a kernel renames something; nothing else in compat/ tests a
 * version.
 *
 *	new name			since	old name
 *	timer_container_of()		6.16	from_timer()
 *	timer_delete(), _sync()		6.2	del_timer(), del_timer_sync()
 *					(Debian's 6.1 has both)
 *	WQCOMPAT_BH_WQ_FLAGS		6.9	the BH pass's queue: WQ_BH, or a rescuer
 *	wqcompat_assign_str(dst, src)	6.10	__assign_str(dst, src); from
 *					6.10 __assign_str(dst) takes src
 *					from __string(dst, src)
 *	WORK_STRUCT_PWQ_MASK		6.10	WORK_STRUCT_WQ_DATA_MASK
 *
 * And the one thing the kernel keeps private that 2.6 semantics need: which
 * pool_workqueue, of which workqueue, the calling worker runs an item for
 * (struct wqcompat_worker_head below).
 */
#ifndef _WQCOMPAT_KAPI_H
#define _WQCOMPAT_KAPI_H

#include <linux/timer.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#ifndef timer_container_of
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "wqcompat.ko needs Linux 6.1 or later"
#endif

/*
 * The flags of the bottom halves' queue: softirq context where BH
 * workqueues (WQ_BH) exist, and they need no worker; else worker
 * threads, which, as 2.4's softirq-run bottom halves did, must make
 * progress under memory pressure (a 2.4 block driver completes its I/O
 * there): a rescuer.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define WQCOMPAT_BH_WQ_FLAGS (WQ_BH | WQ_HIGHPRI)
#else
#define WQCOMPAT_BH_WQ_FLAGS (WQ_HIGHPRI | WQ_MEM_RECLAIM)
#endif

/* The pool_workqueue pointer in a queued item's data word. */
#ifndef WORK_STRUCT_PWQ_MASK
#define WORK_STRUCT_PWQ_MASK WORK_STRUCT_WQ_DATA_MASK
#endif

/*
 * 2.6's flush_workqueue() from the queue's own thread ran the queue by hand
 * (kernel/workqueue.c of 2.6.18, flush_cpu_workqueue(): "cwq->thread ==
 * current").  Whether the caller is a worker of @wq, and for which of
 * @wq's pool_workqueues it runs, the kernel knows exactly and keeps private:
 * worker->current_pwq, and pwq->wq.  These mirror the first fields of
 * struct worker (kernel/workqueue_internal.h) and struct pool_workqueue
 * (kernel/workqueue.c), the same from 3.10 to 6.12.  wqcompat.ko checks
 * them against a run of its own when it loads (w26_worker_layout_ok() in
 * work26_run.c) and refuses to load where they differ, rather than guess.
 * A pool_workqueue is freed after an RCU grace period (kfree_rcu()), so
 * ->wq of a pointer read from a queued item's data word may be read inside
 * an RCU read-side section.
 */
struct wqcompat_worker_head {
	union {
		struct list_head entry;
		struct hlist_node hentry;
	};
	struct work_struct *current_work;
	work_func_t current_func;
	void *current_pwq;
};

struct wqcompat_pwq_head {
	void *pool;
	struct workqueue_struct *wq;
};

/* In a TRACE_EVENT's TP_fast_assign(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define wqcompat_assign_str(dst, src) __assign_str(dst)
#else
#define wqcompat_assign_str(dst, src) __assign_str(dst, src)
#endif

#endif /* _WQCOMPAT_KAPI_H */

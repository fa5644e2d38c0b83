/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the 2.4 task-queue layer (events/wqcompat_tq/ in tracefs):
 * a task's birth on a queue, each routine call and its return, each run of
 * a bottom half.
 * CREATE_TRACE_POINTS is defined in compat/tqueue.c only.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM wqcompat_tq

#if !defined(_WQCOMPAT_TQ_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _WQCOMPAT_TQ_TRACE_H

#include <linux/tracepoint.h>

#include "wqcompat_kapi.h"

/*
 * Routines are recorded as void * the way the kernel's workqueue events
 * record work->func: a conversion for %ps, never a call.
 */

TRACE_EVENT(wqcompat_tq_queue,
	TP_PROTO(const void *task, const void *list, const char *queue,
		 void (*routine)(void *data), int newly),
	TP_ARGS(task, list, queue, routine, newly),
	TP_STRUCT__entry(
		__field(const void *, task)
		__field(const void *, list)
		__string(queue, queue)
		__field(void *, routine)
		__field(int, newly)
	),
	TP_fast_assign(
		__entry->task = task;
		__entry->list = list;
		wqcompat_assign_str(queue, queue);
		__entry->routine = routine;
		__entry->newly = newly;
	),
	TP_printk("task=%p queue=%s(%p) routine=%ps %s", __entry->task,
		  __get_str(queue), __entry->list, __entry->routine,
		  __entry->newly ? "queued" : "already-queued")
);

TRACE_EVENT(wqcompat_tq_run,
	TP_PROTO(const void *task, const char *queue,
		 void (*routine)(void *arg), void *data),
	TP_ARGS(task, queue, routine, data),
	TP_STRUCT__entry(
		__field(const void *, task)
		__string(queue, queue)
		__field(void *, routine)
		__field(void *, data)
	),
	TP_fast_assign(
		__entry->task = task;
		wqcompat_assign_str(queue, queue);
		__entry->routine = routine;
		__entry->data = data;
	),
	TP_printk("task=%p queue=%s routine=%ps data=%p", __entry->task,
		  __get_str(queue), __entry->routine, __entry->data)
);

/* The routine a wqcompat_tq_run event called has returned. */
TRACE_EVENT(wqcompat_tq_done,
	TP_PROTO(const void *task, void (*routine)(void *arg)),
	TP_ARGS(task, routine),
	TP_STRUCT__entry(
		__field(const void *, task)
		__field(void *, routine)
	),
	TP_fast_assign(
		__entry->task = task;
		__entry->routine = routine;
	),
	TP_printk("task=%p routine=%ps", __entry->task, __entry->routine)
);

/* A bottom half's routine called, and returned. */
DECLARE_EVENT_CLASS(wqcompat_bh,
	TP_PROTO(int nr, void (*routine)(void)),
	TP_ARGS(nr, routine),
	TP_STRUCT__entry(
		__field(int, nr)
		__field(void *, routine)
	),
	TP_fast_assign(
		__entry->nr = nr;
		__entry->routine = routine;
	),
	TP_printk("bh=%d routine=%ps", __entry->nr, __entry->routine)
);

DEFINE_EVENT(wqcompat_bh, wqcompat_bh_run,
	TP_PROTO(int nr, void (*routine)(void)),
	TP_ARGS(nr, routine)
);

DEFINE_EVENT(wqcompat_bh, wqcompat_bh_done,
	TP_PROTO(int nr, void (*routine)(void)),
	TP_ARGS(nr, routine)
);

#endif /* _WQCOMPAT_TQ_TRACE_H */

/*
 * This header sits in compat/, next to the .c files; the only include path
 * Kbuild gives the shim is compat/include, so the path is relative to it.
 */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ..
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tq_trace
#include <trace/define_trace.h>

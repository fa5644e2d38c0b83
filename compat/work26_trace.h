/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the 2.6 workqueue layer (events/wqcompat_work26/ in
 * tracefs).  A legacy item is queued, armed, cancelled and run by the
 * kernel through its shadow (compat/work26.c), so the kernel's own
 * workqueue:* and timer:* events record its life under the shadow's
 * addresses and w26_shadow_fn: these two events give the names back.
 *
 *  - wqcompat_work26_bind: an item gets a record (or, given to the
 *    kernel's delayed API, is queued as it is); from here the shadow's work
 *    and timer addresses in the kernel's events are this item's.
 *  - wqcompat_work26_run: a handler call begins or ends, with the item
 *    and the handler it calls, whoever runs it (the shadow's worker, a
 *    flush running it by hand, the kernel running the driver's own item).
 *
 * `wqport trace` (scripts/wqport-trace, scripts/wqportlib/trace_read.py)
 * reads them beside the kernel's.  CREATE_TRACE_POINTS: compat/work26_run.c.
 * A handler changed on a bound item (INIT_WORK, PREPARE_WORK) has no event:
 * the next run names it.
 *
 * wqcompat_work26_bind fires with the layer's raw spinlock held and
 * interrupts off: a probe attached to it (a KUnit test, a module) must
 * not sleep and may take only raw spinlocks.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM wqcompat_work26

#if !defined(_WQCOMPAT_WORK26_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _WQCOMPAT_WORK26_TRACE_H

#include <linux/tracepoint.h>

/* How a handler call came about (wqcompat_work26_run's @how). */
#define W26_RUN_WORKER	0	/* the shadow's run by a worker */
#define W26_RUN_HAND	1	/* by hand, in a flush from a handler */
#define W26_RUN_KERNEL	2	/* the kernel ran the driver's own item */

/*
 * Handlers (a legacy one, or the modern handler of an item given a 2.6
 * delayed call, work26_plain.c) are recorded as void * the way the
 * kernel's workqueue events record work->func: for %ps, never a call.
 */

TRACE_EVENT(wqcompat_work26_bind,
	TP_PROTO(const void *item, const void *shadow, const void *timer,
		 const void *handler),
	TP_ARGS(item, shadow, timer, handler),
	TP_STRUCT__entry(
		__field(const void *, item)
		__field(const void *, shadow)
		__field(const void *, timer)
		__field(const void *, handler)
	),
	TP_fast_assign(
		__entry->item = item;
		__entry->shadow = shadow;
		__entry->timer = timer;
		__entry->handler = handler;
	),
	TP_printk("item=%p shadow=%p timer=%p handler=%ps", __entry->item,
		  __entry->shadow, __entry->timer, __entry->handler)
);

TRACE_EVENT(wqcompat_work26_run,
	TP_PROTO(const void *item, const void *handler, int how, int end),
	TP_ARGS(item, handler, how, end),
	TP_STRUCT__entry(
		__field(const void *, item)
		__field(const void *, handler)
		__field(int, how)
		__field(int, end)
	),
	TP_fast_assign(
		__entry->item = item;
		__entry->handler = handler;
		__entry->how = how;
		__entry->end = end;
	),
	TP_printk("item=%p handler=%ps by=%s %s", __entry->item,
		  __entry->handler,
		  __print_symbolic(__entry->how, { W26_RUN_WORKER, "worker" },
				   { W26_RUN_HAND, "hand" },
				   { W26_RUN_KERNEL, "kernel" }),
		  __entry->end ? "end" : "start")
);

#endif /* _WQCOMPAT_WORK26_TRACE_H */

/* A path relative to compat/include, as in tq_trace.h. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ..
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE work26_trace
#include <trace/define_trace.h>

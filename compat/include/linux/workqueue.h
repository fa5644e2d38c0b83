/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqport overlay for <linux/workqueue.h>: the kernel's header, plus the
 * 2.6.0-2.6.19 workqueue API beside the modern one.
 *
 * Theory.  In 2.6.19 a work item was
 *
 *	struct work_struct { pending; entry; void (*func)(void *); data;
 *			     wq_data; struct timer_list timer; };
 *
 * and the handler got the data pointer.  The modern struct work_struct has
 * no room for @data or @timer, and it must not be redefined: every kernel
 * header that embeds it would change layout.  So a legacy item is a plain
 * modern work_struct whose ->func is wqcompat_work_trampoline(), and
 * wqcompat.ko keeps a side record per item (compat/work26.c): the legacy
 * handler and its data, the owning module, and a timer for legacy delayed
 * queueing.  The trampoline finds the record and calls func(data); no
 * function pointer is ever cast (kCFI).
 *
 * Old and new forms coexist in one file:
 *  - INIT_WORK, PREPARE_WORK, DECLARE_WORK, schedule_on_each_cpu and
 *    execute_in_process_context pick the legacy or the modern form by their
 *    number of arguments;
 *  - the delayed-work calls pick by the pointer type (_Generic): a
 *    struct work_struct * is legacy delayed work, anything else goes to the
 *    kernel's struct delayed_work API unchanged.
 *
 * schedule_work() and friends go to a workqueue wqcompat.ko owns, so that
 * flush_scheduled_work() flushes that one and never system_wq (6.1 warns,
 * at compile time, about flushing system-wide workqueues).
 *
 * Everything else (create_workqueue, create_singlethread_workqueue,
 * flush_workqueue, work_pending, ...) is the kernel's own and already keeps
 * the 2.6 promise; see docs/compat-workqueue-2.6.md for the whole mapping.
 */
#ifndef _WQCOMPAT_LINUX_WORKQUEUE_H
#define _WQCOMPAT_LINUX_WORKQUEUE_H

#include_next <linux/workqueue.h>
#include <linux/export.h>

struct module;

/*
 * The static part of a 3-argument DECLARE_WORK: the legacy handler, its
 * data and the owner.  Until the item is first used, ->entry.prev of the
 * declared work_struct points at it (see __WQCOMPAT_DECLARE_WORK3); the
 * first use moves it into a record.  Not for drivers.
 */
struct wqcompat_work26_decl {
	void (*func)(void *data);
	void *data;
	struct module *owner;
};

void wqcompat_work_trampoline(struct work_struct *work);
void wqcompat_work_decl_trampoline(struct work_struct *work);
void wqcompat_init_work(struct work_struct *work, void (*func)(void *data),
			void *data, struct module *owner);
void wqcompat_prepare_work(struct work_struct *work, void (*func)(void *data),
			   void *data, struct module *owner);
bool wqcompat_queue_work_on(int cpu, struct workqueue_struct *wq,
			    struct work_struct *work);
bool wqcompat_queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
				    struct work_struct *work,
				    unsigned long delay, struct module *owner);
int wqcompat_cancel_delayed_work(struct work_struct *work);
void wqcompat_cancel_rearming_delayed_work(struct work_struct *work);
bool wqcompat_schedule_work_on(int cpu, struct work_struct *work);
bool wqcompat_schedule_delayed_work_on(int cpu, struct work_struct *work,
				       unsigned long delay,
				       struct module *owner);
bool wqcompat_schedule_dwork_on(int cpu, struct delayed_work *dwork,
				unsigned long delay, struct module *owner);
void wqcompat_flush_scheduled_work(void);
void wqcompat_destroy_workqueue(struct workqueue_struct *wq);
int wqcompat_schedule_on_each_cpu(void (*func)(void *info), void *info);
int wqcompat_execute_in_process_context(void (*fn)(void *data), void *data,
					struct execute_work *ew,
					struct module *owner);

/* Is @work a legacy item (handler reached through the trampoline)? */
static inline bool wqcompat_work_is_legacy(struct work_struct *work)
{
	work_func_t fn = READ_ONCE(work->func);

	return fn == wqcompat_work_trampoline ||
	       fn == wqcompat_work_decl_trampoline;
}

/* queue_work_on() for any item: legacy items are accounted in wqcompat. */
static inline bool __wqcompat_queue_work_on(int cpu, struct workqueue_struct *wq,
					    struct work_struct *work)
{
	if (wqcompat_work_is_legacy(work))
		return wqcompat_queue_work_on(cpu, wq, work);
	return queue_work_on(cpu, wq, work);
}

/* The modern arm of the _Generic selections below, with the legacy shapes. */
static inline bool __wqcompat_queue_dwork_on(int cpu, struct workqueue_struct *wq,
					     struct delayed_work *dwork,
					     unsigned long delay,
					     struct module *owner)
{
	return queue_delayed_work_on(cpu, wq, dwork, delay);
}

static inline void __wqcompat_cancel_dwork_sync(struct delayed_work *dwork)
{
	cancel_delayed_work_sync(dwork);
}

/* Pick the 2- or 3-argument form of a macro. */
#define __WQCOMPAT_PICK23(_1, _2, _3, name, ...) name

/*
 * INIT_WORK(work, func)		modern, the kernel's own
 * INIT_WORK(work, func, data)		2.6.0-2.6.19: func(data) will run
 */
#undef INIT_WORK
#define INIT_WORK(...)							\
	__WQCOMPAT_PICK23(__VA_ARGS__, __WQCOMPAT_INIT_WORK3,		\
			  __WQCOMPAT_INIT_WORK2, )(__VA_ARGS__)
#define __WQCOMPAT_INIT_WORK2(_work, _func)				\
	__INIT_WORK((_work), (_func), 0)
#define __WQCOMPAT_INIT_WORK3(_work, _func, _data)			\
	do {								\
		struct work_struct *__wqc_w = (_work);			\
									\
		__INIT_WORK(__wqc_w, wqcompat_work_trampoline, 0);	\
		wqcompat_init_work(__wqc_w, (_func), (_data), THIS_MODULE); \
	} while (0)

/*
 * PREPARE_WORK(work, func)		2.6.20-3.15: only ->func
 * PREPARE_WORK(work, func, data)	2.6.0-2.6.19: only func and data
 */
#undef PREPARE_WORK
#define PREPARE_WORK(...)						\
	__WQCOMPAT_PICK23(__VA_ARGS__, __WQCOMPAT_PREPARE_WORK3,	\
			  __WQCOMPAT_PREPARE_WORK2, )(__VA_ARGS__)
#define __WQCOMPAT_PREPARE_WORK2(_work, _func)				\
	do {								\
		(_work)->func = (_func);				\
	} while (0)
#define __WQCOMPAT_PREPARE_WORK3(_work, _func, _data)			\
	wqcompat_prepare_work((_work), (_func), (_data), THIS_MODULE)

/*
 * DECLARE_WORK(n, func)		modern, the kernel's own
 * DECLARE_WORK(n, func, data)		2.6.0-2.6.19
 *
 * Both declare exactly one object, "struct work_struct n", so "static
 * DECLARE_WORK(...)" and block-scope use work as on 2.6.  The legacy form
 * parks {func, data, owner} in a compound literal (static storage at file
 * scope, automatic at block scope, like n itself) reachable from
 * n.entry.prev; the first use of n moves it into a wqcompat record and
 * restores n.entry.  Nothing else reads ->entry of an idle work item.
 */
#undef DECLARE_WORK
#define DECLARE_WORK(...)						\
	__WQCOMPAT_PICK23(__VA_ARGS__, __WQCOMPAT_DECLARE_WORK3,	\
			  __WQCOMPAT_DECLARE_WORK2, )(__VA_ARGS__)
#define __WQCOMPAT_DECLARE_WORK2(n, f)					\
	struct work_struct n = __WORK_INITIALIZER(n, f)
#define __WQCOMPAT_DECLARE_WORK3(n, f, d)				\
	struct work_struct n = {					\
		.data = WORK_DATA_STATIC_INIT(),			\
		.entry = { &(n).entry, (struct list_head *)		\
			   &(struct wqcompat_work26_decl) {		\
				.func = (f), .data = (d),		\
				.owner = THIS_MODULE } },		\
		.func = wqcompat_work_decl_trampoline,			\
		__WORK_INIT_LOCKDEP_MAP(#n, &(n))			\
	}

/* queue_work() and queue_work_on(): same shape in 2.6 and 6.1. */
#define queue_work_on(cpu, wq, work)					\
	__wqcompat_queue_work_on((cpu), (wq), (work))
#define queue_work(wq, work)						\
	__wqcompat_queue_work_on(WORK_CPU_UNBOUND, (wq), (work))

/*
 * queue_delayed_work(_on)(..., struct work_struct *, delay)	2.6.0-2.6.19
 * queue_delayed_work(_on)(..., struct delayed_work *, delay)	modern
 */
#define queue_delayed_work_on(cpu, wq, work, delay)			\
	_Generic((work),						\
		 struct work_struct *: wqcompat_queue_delayed_work_on,	\
		 default: __wqcompat_queue_dwork_on)			\
		((cpu), (wq), (work), (delay), THIS_MODULE)
#define queue_delayed_work(wq, work, delay)				\
	queue_delayed_work_on(WORK_CPU_UNBOUND, (wq), (work), (delay))

/*
 * cancel_delayed_work(struct work_struct *)	2.6: int, stops the timer only
 * cancel_delayed_work(struct delayed_work *)	modern, the kernel's own
 */
#define cancel_delayed_work(work)					\
	_Generic((work),						\
		 struct work_struct *: wqcompat_cancel_delayed_work,	\
		 default: (cancel_delayed_work))((work))

/*
 * cancel_rearming_delayed_work{,queue}(): 2.6.19 takes struct work_struct *,
 * 2.6.20-2.6.22 struct delayed_work *.  Both return with the item idle.
 */
#define cancel_rearming_delayed_work(work)				\
	_Generic((work),						\
		 struct work_struct *: wqcompat_cancel_rearming_delayed_work, \
		 default: __wqcompat_cancel_dwork_sync)((work))
#define cancel_rearming_delayed_workqueue(wq, work)			\
	do {								\
		(void)(wq);						\
		cancel_rearming_delayed_work(work);			\
	} while (0)

/* The 2.6 "events" queue is wqcompat's own (flush_scheduled_work). */
#define schedule_work_on(cpu, work) wqcompat_schedule_work_on((cpu), (work))
#define schedule_work(work) wqcompat_schedule_work_on(WORK_CPU_UNBOUND, (work))
#define schedule_delayed_work_on(cpu, work, delay)			\
	_Generic((work),						\
		 struct work_struct *: wqcompat_schedule_delayed_work_on, \
		 default: wqcompat_schedule_dwork_on)			\
		((cpu), (work), (delay), THIS_MODULE)
#define schedule_delayed_work(work, delay)				\
	schedule_delayed_work_on(WORK_CPU_UNBOUND, (work), (delay))
#undef flush_scheduled_work
#define flush_scheduled_work() wqcompat_flush_scheduled_work()

/* Flushes, deals with legacy timers that target @wq, then destroys. */
#define destroy_workqueue(wq) wqcompat_destroy_workqueue(wq)

/*
 * schedule_on_each_cpu(func)			modern, the kernel's own
 * schedule_on_each_cpu(func, info)		2.6.0-2.6.19: func(info)
 */
#define schedule_on_each_cpu(...)					\
	__WQCOMPAT_PICK23(__VA_ARGS__, , wqcompat_schedule_on_each_cpu,	\
			  (schedule_on_each_cpu))(__VA_ARGS__)

/*
 * execute_in_process_context(fn, ew)		modern, the kernel's own
 * execute_in_process_context(fn, data, ew)	2.6.18-2.6.19
 */
#define execute_in_process_context(...)					\
	__WQCOMPAT_PICK23(__VA_ARGS__, __WQCOMPAT_EIPC3,		\
			  (execute_in_process_context), )(__VA_ARGS__)
#define __WQCOMPAT_EIPC3(fn, data, ew)					\
	wqcompat_execute_in_process_context((fn), (data), (ew), THIS_MODULE)

#endif /* _WQCOMPAT_LINUX_WORKQUEUE_H */

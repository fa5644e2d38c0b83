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
 * header that embeds it would change layout.  So a legacy item is never
 * handed to the kernel.  wqcompat.ko keeps a record per item that embeds a
 * real struct delayed_work, the *shadow*; every queueing call queues the
 * shadow, and the shadow's function, found by container_of(), calls the
 * legacy handler with its data.  The driver's own work_struct is storage:
 *
 *	unbound	->func  = wqcompat_work_unbound	(INIT_WORK, DECLARE_WORK)
 *		->entry = { handler, data }
 *	bound	->func  = wqcompat_work_trampoline	(after the first queueing)
 *		->entry = { link to the record | 1, cookie of the binding }
 *	->data is the kernel's idle value in both, and is never written.
 *
 * Queueing a bound item costs a native queue_work() of the shadow plus a
 * few loads; no lock, no lookup.  No function pointer is ever cast to
 * another type to be called (kCFI).  See docs/compat-workqueue-2.6.md for
 * an item's whole life and every difference from 2.6.
 *
 * Old and new forms coexist in one file:
 *  - INIT_WORK, PREPARE_WORK, DECLARE_WORK, __WORK_INITIALIZER,
 *    schedule_on_each_cpu and execute_in_process_context pick the legacy or
 *    the modern form by their number of arguments;
 *  - the delayed-work calls pick by the pointer type (_Generic): struct
 *    work_struct * or void * is legacy delayed work, struct delayed_work *
 *    goes to the kernel's API; any other type does not compile;
 *  - queue_work(), work_pending(), flush_work(), cancel_work(_sync)() and
 *    work_busy() send a legacy item (known by ->func) to its shadow and any
 *    other item to the kernel.
 *
 * schedule_work() and friends go to a workqueue wqcompat.ko owns, so that
 * flush_scheduled_work() flushes that one and never system_wq.
 */
#ifndef _WQCOMPAT_LINUX_WORKQUEUE_H
#define _WQCOMPAT_LINUX_WORKQUEUE_H

#include_next <linux/workqueue.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/export.h>	/* THIS_MODULE up to 6.3 */
#include <linux/init.h>		/* THIS_MODULE from 6.4 */
#include <linux/wqcompat_work26.h>

struct module;

/* ->func of a legacy item; both are real work functions (see above). */
void wqcompat_work_trampoline(struct work_struct *work);
void wqcompat_work_unbound(struct work_struct *work);

/* Is @work a legacy item (3-argument INIT_WORK, DECLARE_WORK, PREPARE_WORK)? */
static inline bool wqcompat_work_is_legacy(struct work_struct *work)
{
	work_func_t fn = READ_ONCE(work->func);

	return fn == wqcompat_work_trampoline || fn == wqcompat_work_unbound;
}

void wqcompat_init_work(struct work_struct *work, void (*func)(void *data),
			void *data, struct module *owner,
			struct lock_class_key *key, const char *name);
void wqcompat_prepare_work(struct work_struct *work, void (*func)(void *data),
			   void *data);
bool wqcompat_queue_work_on(int cpu, struct workqueue_struct *wq,
			    struct work_struct *work, struct module *owner);
bool wqcompat_queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
				    struct work_struct *work,
				    unsigned long delay, struct module *owner);
bool wqcompat_queue_dwork_on(int cpu, struct workqueue_struct *wq,
			     struct delayed_work *dwork, unsigned long delay,
			     struct module *owner);
int wqcompat_cancel_delayed_work(struct work_struct *work);
void wqcompat_cancel_rearming_delayed_work(struct work_struct *work);
bool wqcompat_work_pending(struct work_struct *work);
bool wqcompat_flush_work(struct work_struct *work);
bool wqcompat_cancel_work(struct work_struct *work);
bool wqcompat_cancel_work_sync(struct work_struct *work);
unsigned int wqcompat_work_busy(struct work_struct *work);
void wqcompat_flush_workqueue(struct workqueue_struct *wq);
void wqcompat_flush_scheduled_work(void);
void wqcompat_destroy_workqueue(struct workqueue_struct *wq);
int wqcompat_schedule_on_each_cpu(void (*func)(void *info), void *info);
int wqcompat_execute_in_process_context(void (*fn)(void *data), void *data,
					struct execute_work *ew,
					struct module *owner);

/* The 2.6 "events" queue: wqcompat's own, never system_wq. */
extern struct workqueue_struct *wqcompat_events_wq;

/*
 * 2.6's keventd_up() and current_is_keventd(), which 6.x lacks: the events
 * queue is up while wqcompat.ko is loaded; keventd is its workers (and
 * 2.4's, <linux/tqueue.h>: the same function answers for both).
 */
static inline int keventd_up(void)
{
	return READ_ONCE(wqcompat_events_wq) != NULL;
}

int wqcompat_current_is_keventd(void);
#define current_is_keventd()	wqcompat_current_is_keventd()

/* Queues in wqcompat_destroy_workqueue(): legacy arming looks closer. */
extern atomic_t wqcompat_w26_dying_wqs;
/* Records for 2.6 delayed calls on modern items exist (work26_plain.c). */
extern atomic_t wqcompat_plain_active;

static inline bool __wqcompat_slow(struct work_struct *work)
{
	return wqcompat_work_is_legacy(work) ||
	       unlikely(atomic_read(&wqcompat_plain_active));
}

/* The modern arm of the delayed calls: the kernel's, for a modern item. */
static inline bool __wqcompat_queue_dwork_on(int cpu,
					     struct workqueue_struct *wq,
					     struct delayed_work *dwork,
					     unsigned long delay,
					     struct module *owner)
{
	if (unlikely(wqcompat_work_is_legacy(&dwork->work)))
		return wqcompat_queue_dwork_on(cpu, wq, dwork, delay, owner);
	return (queue_delayed_work_on)(cpu, wq, dwork, delay);
}

/*
 * A test build of a module (WQCOMPAT_OVERLAY_TEST_HOOK defined, the module
 * defines the function) is called where the fast path has validated a
 * bound item's record and not yet queued its shadow.  Nothing otherwise.
 */
#ifdef WQCOMPAT_OVERLAY_TEST_HOOK
void wqcompat_overlay_test_hook(struct work_struct *work);
#define wqcompat_overlay_hook(work)	wqcompat_overlay_test_hook(work)
#else
#define wqcompat_overlay_hook(work)	do { } while (0)
#endif

/*
 * queue_work_on() for any item.  A bound legacy item with its link intact
 * (all but its first queueing) is queued here, inline: its shadow.  The
 * link is checked, and the module's going read, with preemption off: a
 * going module's unload waits for this section (synchronize_rcu()) before
 * it cancels and recycles the record, so a record that was this item's
 * when checked is still this item's when queued.
 */
static __always_inline bool
__wqcompat_queue_work_on(int cpu, struct workqueue_struct *wq,
			 struct work_struct *work, struct module *owner)
{
	work_func_t fn = READ_ONCE(work->func);
	struct wqcompat_work26_rec *rec;
	bool ret = false;

	if (fn == wqcompat_work_trampoline) {
		preempt_disable();
		rec = wqcompat_w26_rec_of(work);
		if (likely(rec)) {
			wqcompat_overlay_hook(work);
			if (likely(!READ_ONCE(rec->dying)))
				ret = (queue_work_on)(cpu, wq, &rec->dwork.work);
			preempt_enable();
			return ret;
		}
		preempt_enable();
	} else if (fn != wqcompat_work_unbound) {
		return (queue_work_on)(cpu, wq, work);
	}
	return wqcompat_queue_work_on(cpu, wq, work, owner);
}

/* 2.6 queue_delayed_work_on() of a struct work_struct, same fast path. */
static __always_inline bool
__wqcompat_queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
				 struct work_struct *work, unsigned long delay,
				 struct module *owner)
{
	struct wqcompat_work26_rec *rec;
	bool ret = false;

	if (READ_ONCE(work->func) == wqcompat_work_trampoline) {
		preempt_disable();
		rec = wqcompat_w26_rec_of(work);
		if (likely(rec && !atomic_read(&wqcompat_w26_dying_wqs) &&
			   !READ_ONCE(rec->dying))) {
			ret = (queue_delayed_work_on)(cpu, wq, &rec->dwork,
						      delay);
			preempt_enable();
			return ret;
		}
		preempt_enable();
	}
	return wqcompat_queue_delayed_work_on(cpu, wq, work, delay, owner);
}

/*
 * 3-argument INIT_WORK of an item whose memory still holds its binding
 * (re-initialised in place: the common "INIT_WORK before each queueing"):
 * only the handler changes, inline.  Anything else goes out of line.
 */
static __always_inline void
__wqcompat_init_work3(struct work_struct *work, void (*func)(void *data),
		      void *data, struct module *owner,
		      struct lock_class_key *key, const char *name)
{
	struct wqcompat_work26_rec *rec;

	/*
	 * The item's memory may hold anything, on the stack too, and is read
	 * on purpose (a binding of this address?): no -Wuninitialized.
	 */
	OPTIMIZER_HIDE_VAR(work);
	if (READ_ONCE(work->func) == wqcompat_work_trampoline) {
		rec = wqcompat_w26_rec_of(work);
		if (likely(rec) && READ_ONCE(rec->owner) == owner &&
#ifdef CONFIG_LOCKDEP
		    rec->dwork.work.lockdep_map.key == key &&
#endif
		    !test_bit(WORK_STRUCT_PENDING_BIT,
			      work_data_bits(&rec->dwork.work))) {
#ifdef CONFIG_LOCKDEP
			lockdep_init_map(&work->lockdep_map, name, key, 0);
#endif
			/*
			 * Not pending: no run can start and read the pair
			 * while we write it (INIT_WORK races with nothing
			 * on 2.6), so no seqcount.  The shadow's data word
			 * stays (see wqcompat_init_work()): a running
			 * handler is found through it.
			 */
			WRITE_ONCE(rec->func, func);
			WRITE_ONCE(rec->data, data);
			return;
		}
	}
	wqcompat_init_work(work, func, data, owner, key, name);
}

/* Pick the 2- or 3-argument form of a macro. */
#define __WQCOMPAT_PICK23(_1, _2, _3, name, ...) name

/*
 * INIT_WORK(work, func)		modern, the kernel's own
 * INIT_WORK(work, func, data)		2.6.0-2.6.19: func(data) will run
 *
 * The legacy form allocates nothing and takes no lock but raw ones (to
 * cancel a pending item it re-initialises): any context.  The
 * lockdep class of the item is per call site, as the kernel's.
 */
#undef INIT_WORK
#define INIT_WORK(...)							\
	__WQCOMPAT_PICK23(__VA_ARGS__, __WQCOMPAT_INIT_WORK3,		\
			  __WQCOMPAT_INIT_WORK2, )(__VA_ARGS__)
#define __WQCOMPAT_INIT_WORK2(_work, _func)				\
	__INIT_WORK((_work), (_func), 0)
#define __WQCOMPAT_INIT_WORK3(_work, _func, _data)			\
	do {								\
		static __maybe_unused struct lock_class_key __key;	\
									\
		__wqcompat_init_work3((_work), (_func), (_data),	\
				      THIS_MODULE, &__key,		\
				      "(work_completion)"#_work);	\
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
	wqcompat_prepare_work((_work), (_func), (_data))

/*
 * __WORK_INITIALIZER(n, func)		modern, the kernel's own
 * __WORK_INITIALIZER(n, func, data)	2.6.0-2.6.19
 * DECLARE_WORK(n, func)		modern, the kernel's own
 * DECLARE_WORK(n, func, data)		2.6.0-2.6.19
 *
 * The legacy initializer is an unbound item: handler and data in ->entry,
 * both address constants, so that "static DECLARE_WORK(...)" works at file
 * and at block scope and declares exactly one object, as on 2.6.  The
 * conditional expression type-checks the handler as 2.6 did (a warning for
 * another function type).  The first queueing binds it to a record.
 */
#define __WQCOMPAT_WORK_INITIALIZER3(n, f, d) {				\
	.data = WORK_DATA_STATIC_INIT(),				\
	.entry = { (struct list_head *)(1 ? (f) : (void (*)(void *))0), \
		   (struct list_head *)(d) },				\
	.func = wqcompat_work_unbound,					\
	__WORK_INIT_LOCKDEP_MAP(#n, &(n))				\
	}
#define __WQCOMPAT_WORK_INITIALIZER2(n, f) {				\
	.data = WORK_DATA_STATIC_INIT(),				\
	.entry	= { &(n).entry, &(n).entry },				\
	.func = (f),							\
	__WORK_INIT_LOCKDEP_MAP(#n, &(n))				\
	}
#undef __WORK_INITIALIZER
#define __WORK_INITIALIZER(...)						\
	__WQCOMPAT_PICK23(__VA_ARGS__, __WQCOMPAT_WORK_INITIALIZER3,	\
			  __WQCOMPAT_WORK_INITIALIZER2, )(__VA_ARGS__)
#undef DECLARE_WORK
#define DECLARE_WORK(n, ...)						\
	struct work_struct n = __WORK_INITIALIZER(n, __VA_ARGS__)

/* queue_work() and queue_work_on(): same shape in 2.6 and 6.x. */
#define queue_work_on(cpu, wq, work)					\
	__wqcompat_queue_work_on((cpu), (wq), (work), THIS_MODULE)
#define queue_work(wq, work)						\
	queue_work_on(WORK_CPU_UNBOUND, (wq), (work))

/*
 * queue_delayed_work(_on)(..., struct work_struct * or void *, delay) 2.6
 * queue_delayed_work(_on)(..., struct delayed_work *, delay)	      modern
 *
 * void * is legacy: a 2.6 handler got its own item as its data and
 * re-queued it as such.  No default: any other type is a compile error.
 */
#define queue_delayed_work_on(cpu, wq, work, delay)			\
	_Generic((work),						\
		 struct work_struct *: __wqcompat_queue_delayed_work_on, \
		 void *: __wqcompat_queue_delayed_work_on,		\
		 struct delayed_work *: __wqcompat_queue_dwork_on)	\
		((cpu), (wq), (work), (delay), THIS_MODULE)
#define queue_delayed_work(wq, work, delay)				\
	queue_delayed_work_on(WORK_CPU_UNBOUND, (wq), (work), (delay))

/*
 * cancel_delayed_work(struct work_struct * or void *)	2.6: int, stops the
 *							timer only
 * cancel_delayed_work(struct delayed_work *)		modern, the kernel's
 */
#define cancel_delayed_work(work)					\
	_Generic((work),						\
		 struct work_struct *: wqcompat_cancel_delayed_work,	\
		 void *: wqcompat_cancel_delayed_work,			\
		 struct delayed_work *: (cancel_delayed_work))((work))

/*
 * cancel_rearming_delayed_work{,queue}(): 2.6.19 takes struct work_struct *,
 * 2.6.20-2.6.22 struct delayed_work *.  Both return with the item idle.
 */
#define cancel_rearming_delayed_work(work)				\
	_Generic((work),						\
		 struct work_struct *: wqcompat_cancel_rearming_delayed_work, \
		 void *: wqcompat_cancel_rearming_delayed_work,		\
		 struct delayed_work *: cancel_delayed_work_sync)((work))
#define cancel_rearming_delayed_workqueue(wq, work)			\
	do {								\
		(void)(wq);						\
		cancel_rearming_delayed_work(work);			\
	} while (0)

/* The 2.6 "events" queue is wqcompat's own (flush_scheduled_work). */
#define schedule_work_on(cpu, work)					\
	__wqcompat_queue_work_on((cpu), wqcompat_events_wq, (work),	\
				 THIS_MODULE)
#define schedule_work(work) schedule_work_on(WORK_CPU_UNBOUND, (work))
#define schedule_delayed_work_on(cpu, work, delay)			\
	queue_delayed_work_on((cpu), wqcompat_events_wq, (work), (delay))
#define schedule_delayed_work(work, delay)				\
	schedule_delayed_work_on(WORK_CPU_UNBOUND, (work), (delay))
#undef flush_scheduled_work
#define flush_scheduled_work() wqcompat_flush_scheduled_work()

/*
 * flush_workqueue(): the kernel's, except from a legacy handler running on
 * that very queue, which 2.6 let run the queue by hand.
 */
#undef flush_workqueue
#define flush_workqueue(wq) wqcompat_flush_workqueue(wq)

/* Legacy timers that target @wq first, then the kernel's. */
#define destroy_workqueue(wq) wqcompat_destroy_workqueue(wq)

/* Item state and cancelling: a legacy item is its shadow. */
static inline bool __wqcompat_work_pending(struct work_struct *work)
{
	if (wqcompat_work_is_legacy(work))
		return wqcompat_work_pending(work);
	return test_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
}
#undef work_pending
#define work_pending(work) __wqcompat_work_pending(work)

static inline bool __wqcompat_flush_work(struct work_struct *work)
{
	if (__wqcompat_slow(work))
		return wqcompat_flush_work(work);
	return (flush_work)(work);
}
#define flush_work(work) __wqcompat_flush_work(work)

static inline bool __wqcompat_cancel_work(struct work_struct *work)
{
	if (__wqcompat_slow(work))
		return wqcompat_cancel_work(work);
	return (cancel_work)(work);
}
#define cancel_work(work) __wqcompat_cancel_work(work)

static inline bool __wqcompat_cancel_work_sync(struct work_struct *work)
{
	if (__wqcompat_slow(work))
		return wqcompat_cancel_work_sync(work);
	return (cancel_work_sync)(work);
}
#define cancel_work_sync(work) __wqcompat_cancel_work_sync(work)

static inline unsigned int __wqcompat_work_busy(struct work_struct *work)
{
	if (__wqcompat_slow(work))
		return wqcompat_work_busy(work);
	return (work_busy)(work);
}
#define work_busy(work) __wqcompat_work_busy(work)

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

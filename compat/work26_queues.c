// SPDX-License-Identifier: GPL-2.0
/*
 * compat/work26_queues.c: the 2.6 queues around legacy work items.
 *
 * 2.6's "events" queue (keventd, one thread per CPU) becomes
 * wqcompat_events_wq, a per-CPU workqueue that wqcompat.ko owns:
 * schedule_work() and friends queue there, and flush_scheduled_work()
 * flushes it, so legacy drivers never flush system_wq (which 6.1 warns
 * about at compile time and which would make them wait for unrelated work).
 * It is WQ_MEM_RECLAIM: like keventd it makes progress under memory
 * pressure.  Like system_wq it is not limited to one item at a time per
 * CPU, the one deliberate difference from keventd.
 *
 * Also here: destroy_workqueue() (legacy timers first), the 2-argument
 * schedule_on_each_cpu() and the 3-argument execute_in_process_context().
 */
#include <linux/cpu.h>
#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>

/* compat/ sees the kernel's headers first: add the overlay on top. */
#include "include/linux/workqueue.h"
#include "wqcompat.h"
#include "work26_rec.h"

struct workqueue_struct *wqcompat_events_wq;

/* Before wqcompat_work26_init() (another layer's init): the kernel's. */
static struct workqueue_struct *w26_events(void)
{
	return READ_ONCE(wqcompat_events_wq) ?: system_wq;
}

/**
 * wqcompat_schedule_work_on - 2.6 schedule_work() / schedule_work_on()
 * @cpu: CPU, or WORK_CPU_UNBOUND
 * @work: legacy or modern item
 *
 * Queues on wqcompat's events queue.  Return: true only if newly queued.
 * Context: any; does not sleep or allocate.
 */
bool wqcompat_schedule_work_on(int cpu, struct work_struct *work)
{
	return __wqcompat_queue_work_on(cpu, w26_events(), work);
}
EXPORT_SYMBOL_GPL(wqcompat_schedule_work_on);

/**
 * wqcompat_schedule_delayed_work_on - 2.6 schedule_delayed_work(_on) on a
 * struct work_struct
 * @cpu: CPU, or WORK_CPU_UNBOUND
 * @work: item
 * @delay: jiffies
 * @owner: module of the call site
 *
 * As wqcompat_queue_delayed_work_on() on the events queue.
 * Context: any; does not sleep or allocate.
 * Return: true if the item was newly queued or its timer newly armed, false
 * if it was already pending.
 */
bool wqcompat_schedule_delayed_work_on(int cpu, struct work_struct *work,
				       unsigned long delay,
				       struct module *owner)
{
	return wqcompat_queue_delayed_work_on(cpu, w26_events(), work, delay,
					      owner);
}
EXPORT_SYMBOL_GPL(wqcompat_schedule_delayed_work_on);

/**
 * wqcompat_schedule_dwork_on - schedule_delayed_work(_on) on a struct
 * delayed_work, in a file that includes the overlay
 * @cpu: CPU, or WORK_CPU_UNBOUND
 * @dwork: modern delayed item
 * @delay: jiffies
 * @owner: unused (the kernel keeps a delayed_work's state)
 *
 * Queues on the events queue too, so that one file's flush_scheduled_work()
 * covers both forms.
 * Context: any; does not sleep or allocate.
 * Return: true if newly queued, false if @dwork was already pending.
 */
bool wqcompat_schedule_dwork_on(int cpu, struct delayed_work *dwork,
				unsigned long delay, struct module *owner)
{
	return queue_delayed_work_on(cpu, w26_events(), dwork, delay);
}
EXPORT_SYMBOL_GPL(wqcompat_schedule_dwork_on);

/**
 * wqcompat_flush_scheduled_work - 2.6 flush_scheduled_work()
 *
 * Waits until every item queued on the events queue before the call has
 * run; items queued later, and legacy timers still armed, are not waited
 * for.  Never flushes system_wq.  Context: process; sleeps.
 */
void wqcompat_flush_scheduled_work(void)
{
	if (READ_ONCE(wqcompat_events_wq))
		flush_workqueue(wqcompat_events_wq);
}
EXPORT_SYMBOL_GPL(wqcompat_flush_scheduled_work);

/**
 * wqcompat_destroy_workqueue - 2.6 destroy_workqueue()
 * @wq: workqueue from create_workqueue() or create_singlethread_workqueue()
 *
 * Legacy timers still armed towards @wq queue their item now (2.6 would
 * have fired them into a freed queue later); then the kernel's
 * destroy_workqueue() drains @wq (every queued item runs, including items
 * the handlers queue on @wq meanwhile) and frees it.  Timers that handlers
 * arm towards @wq during the drain are drained as well.
 * Context: process; sleeps.
 */
void wqcompat_destroy_workqueue(struct workqueue_struct *wq)
{
	wqcompat_work26_drain_timers(wq);
	drain_workqueue(wq);
	wqcompat_work26_drain_timers(wq);
	(destroy_workqueue)(wq);
}
EXPORT_SYMBOL_GPL(wqcompat_destroy_workqueue);

/* schedule_on_each_cpu(func, info): one of these per CPU. */
struct w26_each {
	struct work_struct work;
	void (*func)(void *info);
	void *info;
};

static void w26_each_fn(struct work_struct *work)
{
	struct w26_each *each = container_of(work, struct w26_each, work);

	each->func(each->info);
}

/**
 * wqcompat_schedule_on_each_cpu - 2.6 schedule_on_each_cpu(func, info)
 * @func: called as func(info) once on every online CPU, in process context
 * @info: its argument
 *
 * Waits until all calls returned.  Return: 0, or -ENOMEM.
 * Context: process; sleeps; allocates (as 2.6 did).
 */
int wqcompat_schedule_on_each_cpu(void (*func)(void *info), void *info)
{
	struct w26_each __percpu *works;
	int cpu;

	works = alloc_percpu(struct w26_each);
	if (!works)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct w26_each *each = per_cpu_ptr(works, cpu);

		INIT_WORK(&each->work, w26_each_fn);
		each->func = func;
		each->info = info;
		(queue_work_on)(cpu, w26_events(), &each->work);
	}
	for_each_online_cpu(cpu)
		flush_work(&per_cpu_ptr(works, cpu)->work);
	cpus_read_unlock();
	free_percpu(works);
	return 0;
}
EXPORT_SYMBOL_GPL(wqcompat_schedule_on_each_cpu);

/**
 * wqcompat_execute_in_process_context - 2.6.18 execute_in_process_context()
 * @fn: called as fn(data)
 * @data: its argument
 * @ew: storage for the deferred call; must live until @fn ran
 * @owner: module of the call site
 *
 * Outside interrupt context, calls @fn at once and returns 0; in interrupt
 * context, queues it on the events queue and returns 1.
 * Context: any.
 */
int wqcompat_execute_in_process_context(void (*fn)(void *data), void *data,
					struct execute_work *ew,
					struct module *owner)
{
	if (!in_interrupt()) {
		fn(data);
		return 0;
	}
	__INIT_WORK(&ew->work, wqcompat_work_trampoline, 0);
	wqcompat_init_work(&ew->work, fn, data, owner);
	wqcompat_queue_work_on(WORK_CPU_UNBOUND, w26_events(), &ew->work);
	return 1;
}
EXPORT_SYMBOL_GPL(wqcompat_execute_in_process_context);

/**
 * wqcompat_work26_init - bring up the 2.6 workqueue layer
 *
 * Return: 0 or -ENOMEM.  Context: module init.
 */
int wqcompat_work26_init(void)
{
	struct workqueue_struct *wq;
	int ret;

	ret = wqcompat_work26_records_init();
	if (ret)
		return ret;
	wq = alloc_workqueue("wqcompat_events", WQ_MEM_RECLAIM, 0);
	if (!wq) {
		wqcompat_work26_records_exit();
		return -ENOMEM;
	}
	WRITE_ONCE(wqcompat_events_wq, wq);
	return 0;
}

/**
 * wqcompat_work26_exit - tear the 2.6 workqueue layer down
 *
 * Every module that used it is gone (they depend on wqcompat.ko).
 * Context: module exit.
 */
void wqcompat_work26_exit(void)
{
	struct workqueue_struct *wq = wqcompat_events_wq;

	WRITE_ONCE(wqcompat_events_wq, NULL);
	wqcompat_work26_drain_timers(wq);
	(destroy_workqueue)(wq);
	wqcompat_work26_records_exit();
}

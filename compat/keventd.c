// SPDX-License-Identifier: GPL-2.0
/*
 * 2.4 keventd: schedule_task(), flush_scheduled_tasks(), current_is_keventd().
 *
 * Theory.  2.4's keventd was one kernel thread running one private task
 * queue: process context, tasks may sleep, one at a time, in queueing
 * order.  Here the queue is wqcompat_tq_context and the thread is one work
 * item, keventd_work, on a private ordered workqueue: each execution of
 * keventd_work is one run_task_queue() of the context queue.
 *
 *	schedule_task(t)	queue_task(t, context); if newly queued,
 *				queue_work(keventd_wq, keventd_work)
 *	keventd_work		run_task_queue(context)
 *	flush_scheduled_tasks	flush_workqueue(keventd_wq)
 *
 * Why the flush waits for every task queued before it: the flush queues
 * keventd_work itself before it waits.  An execution of keventd_work that
 * starts after that point splices every task then on the context queue;
 * flush_workqueue() waits for it, and for a run already under way, which
 * runs the tasks it spliced.  It does not count on the schedule_task()
 * that queued a task having queued keventd_work yet: that caller may be
 * preempted between its queue_task() and its queue_work(), while a second
 * schedule_task() of the same task returns 0 and its caller flushes.
 *
 * Why the flush ends although tasks requeue themselves: a task that
 * schedules itself again queues keventd_work after the flush started, and
 * flush_workqueue() does not wait for work queued after it was called
 * (it waits for one flush colour).  2.4 closed the same gap with a marker
 * task it queued and waited for, twice.
 *
 * Why not the kernel's system_wq: flushing it is deprecated on 6.x, and it
 * runs work concurrently; a private ordered queue gives 2.4's one-thread
 * order and a flush that waits for the legacy tasks only.
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>

#include "tq_internal.h"
#include "wqcompat_hooks.h"

static struct workqueue_struct *keventd_wq;
atomic_long_t wqcompat_keventd_flushes;
/* The task running keventd_work (one at a time: the queue is ordered). */
static struct task_struct *keventd_task;

static void keventd_fn(struct work_struct *work)
{
	WRITE_ONCE(keventd_task, current);
	wqcompat_run_task_queue(&wqcompat_tq_context);
	WRITE_ONCE(keventd_task, NULL);
}

static DECLARE_WORK(keventd_work, keventd_fn);

/**
 * wqcompat_schedule_task() - have keventd run a task (2.4 schedule_task)
 * @task: the task, as for queue_task()
 *
 * Queue @task on keventd's private queue and make sure keventd will run
 * it: in process context, where the routine may sleep, one task at a time
 * and in the order queued.  A routine may schedule its own task again; it
 * then runs after the tasks already queued.
 *
 * Context: any, hard IRQ included, under spinlocks: never sleeps, never
 * allocates, waits for nothing.
 * Return: 1 if @task was newly queued, 0 if it was already queued (and
 * will run once).
 */
int wqcompat_schedule_task(struct tq_struct *task)
{
	int ret = wqcompat_queue_task(task, &wqcompat_tq_context);

	if (ret) {
		wqcompat_test_delay(WQCOMPAT_HOOK_SCHEDULE_TASK);
		queue_work(keventd_wq, &keventd_work);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(wqcompat_schedule_task);

/**
 * wqcompat_flush_scheduled_tasks() - wait for scheduled tasks (2.4 flush_scheduled_tasks)
 *
 * Wait until every task that schedule_task() queued before this call has
 * run (its routine returned).  Tasks queued after the call, including
 * tasks that schedule themselves again while the flush waits, are not
 * waited for, so the flush ends.  Called from a scheduled task, where it
 * would wait for itself forever, it complains (WARN, or an error line with
 * misuse_warn=0) and returns at once.
 *
 * Context: process context, may sleep; not from a scheduled task.
 */
void wqcompat_flush_scheduled_tasks(void)
{
	/* 2.4's keventd only: a 2.6 events handler may flush it */
	if (READ_ONCE(keventd_task) == current) {
		wqcompat_tq_complain("flush_scheduled_tasks() from a scheduled task (%pS) would wait for itself; not waiting\n",
				     __builtin_return_address(0));
		return;
	}
	might_sleep();
	atomic_long_inc(&wqcompat_keventd_flushes);
	/* See the theory: an execution that starts after this point. */
	queue_work(keventd_wq, &keventd_work);
	flush_workqueue(keventd_wq);
}
EXPORT_SYMBOL_GPL(wqcompat_flush_scheduled_tasks);

/**
 * wqcompat_current_is_keventd() - does the caller run in keventd?
 *
 * 2.4's keventd ran the scheduled tasks; 2.6's keventd threads ran the
 * events queue.  Both answers are kept: either counts.
 * Context: any.  From hard IRQ it tells about the interrupted task, as
 * 2.4's and 2.6's did.
 * Return: 1 in a routine that keventd runs (schedule_task()) or in a 2.6
 * handler run on the events queue (schedule_work()), 0 elsewhere.
 */
int wqcompat_current_is_keventd(void)
{
	return READ_ONCE(keventd_task) == current || w26_in_events();
}
EXPORT_SYMBOL_GPL(wqcompat_current_is_keventd);

int wqcompat_keventd_init(void)
{
	/*
	 * As create_singlethread_workqueue(): 2.4's keventd was a thread of
	 * its own, never short of memory to run (a rescuer), and a task may
	 * flush any queue (__WQ_LEGACY: the flush-dependency check excuses it).
	 */
	keventd_wq = alloc_ordered_workqueue("wqcompat_keventd",
					     WQ_MEM_RECLAIM | __WQ_LEGACY);
	return keventd_wq ? 0 : -ENOMEM;
}

/* Every user is gone: the context queue is empty. */
void wqcompat_keventd_exit(void)
{
	WARN_ON(TQ_ACTIVE(wqcompat_tq_context));
	destroy_workqueue(keventd_wq);
	keventd_wq = NULL;
}

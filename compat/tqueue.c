// SPDX-License-Identifier: GPL-2.0
/*
 * 2.4 task queues: queue_task(), run_task_queue(), and the three queues the
 * kernel ran for drivers, tq_timer, tq_immediate and tq_disk.
 *
 * Theory.  A task_queue is a bare list_head, as in 2.4, and a tq_struct
 * carries no state beyond 2.4's: bit 0 of ->sync says "on a queue, or taken
 * off one and not yet called".  queue_task() owns the task from the moment
 * its test_and_set_bit() wins until run_task_queue() clears the bit again;
 * only the owner touches ->list, always under wqcompat_tq_lock.  The bit is
 * set and the task listed in one hold of that lock, so a task whose bit is
 * seen set is on a queue or in a run (2.4 left a window between the two).
 *
 * Life of a task:
 *
 *	idle (sync 0) --queue_task--> queued (sync 1, on a queue)
 *	queued --run_task_queue splices--> in a run (sync 1, on the run's list)
 *	in a run --popped, routine and data read, sync cleared--> idle,
 *		and then the routine is called: it may queue the task again.
 *	queued or in a run --owner module unloads--> idle (tq_module.c)
 *	in a run, owner module going --popped, not called--> idle
 *
 * The one difference from 2.4's __run_task_queue(): 2.4 spliced the queue
 * onto a list head on its stack that nobody else could see, and walked it
 * without the lock.  Here every run in progress is on tq_runs and pops one
 * task at a time under the lock, so that a module that unloads can take
 * its tasks out of a run that has not reached them yet, and can wait for a
 * run that is calling one of its routines (see tq_module.c).  The order of
 * calls and what a routine sees are 2.4's.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "tq_internal.h"
#include "wqcompat_hooks.h"

#define CREATE_TRACE_POINTS
#include "tq_trace.h"

DEFINE_RAW_SPINLOCK(wqcompat_tq_lock);

/*
 * The queues 2.4's kernel ran.  Each is run by the shim, never by the
 * driver alone: tq_timer from TQUEUE_BH one tick after it becomes
 * non-empty, tq_immediate from IMMEDIATE_BH (bh.c), tq_disk from
 * run_task_queue(&tq_disk) and tq_disk_delay_ms after it becomes non-empty.
 */
DECLARE_TASK_QUEUE(wqcompat_tq_timer);
EXPORT_SYMBOL_GPL(wqcompat_tq_timer);
DECLARE_TASK_QUEUE(wqcompat_tq_immediate);
EXPORT_SYMBOL_GPL(wqcompat_tq_immediate);
DECLARE_TASK_QUEUE(wqcompat_tq_disk);
EXPORT_SYMBOL_GPL(wqcompat_tq_disk);
/* schedule_task()'s queue, run by keventd.c's work; not exported */
DECLARE_TASK_QUEUE(wqcompat_tq_context);

struct wqcompat_tq_stats wqcompat_tq_stats[WQCOMPAT_TQ_NR];
const char *const wqcompat_tq_names[WQCOMPAT_TQ_NR] = {
	[WQCOMPAT_TQ_TIMER] = "tq_timer",
	[WQCOMPAT_TQ_IMMEDIATE] = "tq_immediate",
	[WQCOMPAT_TQ_DISK] = "tq_disk",
	[WQCOMPAT_TQ_CONTEXT] = "keventd",
	[WQCOMPAT_TQ_OTHER] = "private",
};

/* One run_task_queue() in progress; lives on the runner's stack. */
struct tq_run {
	struct list_head tasks;		/* spliced out, not yet called */
	struct list_head node;		/* on tq_runs */
	enum wqcompat_tq_id id;
	struct tq_struct *task;		/* whose routine is being called, */
	void (*routine)(void *arg);	/* or NULL: unload waits for both */
};

static LIST_HEAD(tq_runs);			/* under wqcompat_tq_lock */
static LIST_HEAD(tq_going);			/* modules unloading, same */
static DECLARE_WAIT_QUEUE_HEAD(tq_runs_wait);	/* a routine returned */

/* The tick: one jiffy after tq_timer becomes non-empty, mark TQUEUE_BH. */
static struct timer_list tq_tick;

/*
 * The unplug delay.  tq_disk_due is the jiffy at which the tasks now on
 * tq_disk may be run by tq_disk_work: tq_disk_delay_ms after the queue last
 * became non-empty.  Set under wqcompat_tq_lock at that transition, and
 * checked under it by tq_disk_unplug() in the same lock hold as the splice,
 * so that an execution of tq_disk_work armed for an earlier batch (one an
 * explicit run_task_queue(&tq_disk) already took) never runs a later task
 * early: it arms itself again for the rest of the delay instead.
 */
static unsigned long tq_disk_due;		/* under wqcompat_tq_lock */
static void tq_disk_unplug(struct work_struct *work);
static DECLARE_DELAYED_WORK(tq_disk_work, tq_disk_unplug);

static bool tq_going_take(struct tq_struct *task, enum wqcompat_tq_id id);

static enum wqcompat_tq_id tq_id(const task_queue *list)
{
	if (list == &wqcompat_tq_timer)
		return WQCOMPAT_TQ_TIMER;
	if (list == &wqcompat_tq_immediate)
		return WQCOMPAT_TQ_IMMEDIATE;
	if (list == &wqcompat_tq_disk)
		return WQCOMPAT_TQ_DISK;
	if (list == &wqcompat_tq_context)
		return WQCOMPAT_TQ_CONTEXT;
	return WQCOMPAT_TQ_OTHER;
}

/**
 * wqcompat_queue_task() - put a task at the tail of a task queue (2.4 queue_task)
 * @task: the task; its ->sync must have started as zero (any 2.4 initializer
 *	does that), its ->routine and ->data are read when it is run
 * @list: the queue: tq_timer, tq_immediate, tq_disk or a driver's own
 *	DECLARE_TASK_QUEUE()
 *
 * If @task is on no queue, add it to the tail of @list.  A task already on
 * a queue, or taken off by a run that has not yet called it, stays where it
 * is and will be called once.  Queueing onto tq_timer arms the tick (the
 * queue runs from TQUEUE_BH one jiffy later); onto tq_disk, the unplug delay
 * (module parameter tq_disk_delay_ms).  Other queues run only when someone
 * calls run_task_queue() on them.
 *
 * Context: any, hard IRQ included, also under spinlocks and with interrupts
 * off: never sleeps, never allocates, waits for nothing.
 * Return: 1 if @task was newly queued, 0 if it was already queued.  Under
 * concurrent callers on the same idle task exactly one gets 1.  A task of
 * a module that is going away is not queued: it counts as taken off by the
 * unload (as one queued a moment earlier would be), and 1 is returned.
 */
int wqcompat_queue_task(struct tq_struct *task, task_queue *list)
{
	enum wqcompat_tq_id id = tq_id(list);
	unsigned long disk_delay = 0;
	void (*routine)(void *arg);
	unsigned long flags;
	bool was_empty;

	if (id == WQCOMPAT_TQ_DISK)
		disk_delay = msecs_to_jiffies(READ_ONCE(wqcompat_tq_disk_delay_ms));
	/* (a caller that will find @task owned passes without the delay) */
	wqcompat_test_delay_if(!test_bit(0, &task->sync), WQCOMPAT_HOOK_QUEUE_OWNED);
	/*
	 * Own @task and list it in one hold of the lock: whoever sees ->sync
	 * set (a queue_task() that returns 0, then flushes) finds it listed.
	 * 2.4 set the bit before it took the lock; a preemption there let a
	 * flush pass a task that was "already queued" (race test).
	 */
	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	if (test_and_set_bit(0, &task->sync)) {
		raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
		/* Someone else owns @task: it will run once, not twice. */
		atomic_long_inc(&wqcompat_tq_stats[id].requeued);
		trace_wqcompat_tq_queue(task, list, wqcompat_tq_names[id],
					NULL, 0);
		return 0;
	}
	/*
	 * A going module's task is never listed: a run would only pop it
	 * uncalled, and a queueing that keeps coming (another module's
	 * timer) would keep the unload's rounds finding one for ever.  It
	 * counts as taken off by the unload, at once.
	 */
	if (unlikely(!list_empty(&tq_going)) && tq_going_take(task, id)) {
		clear_bit_unlock(0, &task->sync);
		raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
		return 1;
	}
	/* We own @task until a run clears ->sync: read what we trace now. */
	routine = task->routine;
	was_empty = list_empty(list);
	list_add_tail(&task->list, list);
	if (id == WQCOMPAT_TQ_DISK && was_empty)
		tq_disk_due = jiffies + disk_delay;
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
	/* Can't dereference task after this point: it may already have run. */
	atomic_long_inc(&wqcompat_tq_stats[id].queued);
	trace_wqcompat_tq_queue(task, list, wqcompat_tq_names[id], routine, 1);

	if (id == WQCOMPAT_TQ_TIMER) {
		timer_reduce(&tq_tick, jiffies + 1);
	} else if (id == WQCOMPAT_TQ_DISK && was_empty) {
		/*
		 * tq_disk just became non-empty: its delay starts now.  An
		 * execution still pending from an earlier batch is moved to
		 * the new deadline (mod, not queue: queue_delayed_work()
		 * would leave it to fire early); tq_disk_unplug() checks the
		 * deadline anyway, for one that is already running.  Tasks
		 * added to a non-empty tq_disk run with the batch they join.
		 */
		mod_delayed_work(system_wq, &tq_disk_work, disk_delay);
	}
	return 1;
}
EXPORT_SYMBOL_GPL(wqcompat_queue_task);

/*
 * Start a run: take the whole of @list onto @run and put @run on tq_runs.
 * Caller holds wqcompat_tq_lock.
 */
static void tq_run_start(struct tq_run *run, task_queue *list)
{
	lockdep_assert_held(&wqcompat_tq_lock);
	INIT_LIST_HEAD(&run->tasks);
	list_splice_init(list, &run->tasks);
	run->task = NULL;
	run->routine = NULL;
	list_add(&run->node, &tq_runs);
}

static bool tq_in_module(struct tq_struct *task, struct module *mod)
{
	return within_module((unsigned long)task, mod) ||
	       within_module((unsigned long)task->routine, mod);
}

/* Is @run calling a routine of @mod, or a routine given a task of @mod? */
static bool tq_run_names(struct tq_run *run, struct module *mod)
{
	lockdep_assert_held(&wqcompat_tq_lock);
	return run->routine &&
	       (within_module((unsigned long)run->routine, mod) ||
		within_module((unsigned long)run->task, mod));
}

/*
 * The first going module that @a or @b lies in, or NULL.  Caller holds
 * wqcompat_tq_lock.
 */
static struct wqcompat_tq_going *tq_going_of(unsigned long a, unsigned long b)
{
	struct wqcompat_tq_going *going;

	lockdep_assert_held(&wqcompat_tq_lock);
	list_for_each_entry(going, &tq_going, node) {
		if (within_module(a, going->mod) || within_module(b, going->mod))
			return going;
	}
	return NULL;
}

/*
 * A run popped @task: if it belongs to a module that is going, count it as
 * taken off for that module and say so (the run must not call it).
 * Caller holds wqcompat_tq_lock.
 */
static bool tq_going_take(struct tq_struct *task, enum wqcompat_tq_id id)
{
	struct wqcompat_tq_going *going =
		tq_going_of((unsigned long)task, (unsigned long)task->routine);

	if (going)
		going->per_queue[id]++;
	return going;
}

/**
 * wqcompat_tq_going_refuse_bh - is a bottom half being installed a going module's?
 * @routine: the routine init_bh() was given
 *
 * A module going away installs no bottom half: a routine of its running
 * during the unload (a 2.6 handler the unload waits for, a BH already in
 * its pass) could otherwise put one back after each round emptied the
 * slots, and mark it, so that the rounds would not end.  Counts it as a
 * slot emptied for that module's report.
 *
 * Caller holds wqcompat_tq_lock.  Return: true if @routine lies in a
 * module that is going (the caller must not install it).
 */
bool wqcompat_tq_going_refuse_bh(void (*routine)(void))
{
	struct wqcompat_tq_going *going =
		tq_going_of((unsigned long)routine, (unsigned long)routine);

	if (going)
		going->bhs++;
	return going;
}

/* Call the tasks of a started run, one at a time, FIFO; then end it. */
static void tq_run_tasks(struct tq_run *run)
{
	const char *name = wqcompat_tq_names[run->id];
	bool called = false, gone;
	unsigned long flags;

	atomic_long_inc(&wqcompat_tq_stats[run->id].flushed);
	for (;;) {
		struct tq_struct *task;
		void (*routine)(void *arg);
		void *data;

		raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
		run->task = NULL;
		run->routine = NULL;
		task = list_first_entry_or_null(&run->tasks, struct tq_struct,
						list);
		if (!task) {
			list_del(&run->node);
			raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
			break;
		}
		list_del_init(&task->list);
		routine = task->routine;
		data = task->data;
		/* A module going away: its tasks are no longer called. */
		gone = !list_empty(&tq_going) && tq_going_take(task, run->id);
		if (gone) {
			routine = NULL;
			/* in this hold: the unload does not wait for it */
			atomic_long_inc(&wqcompat_tq_stats[run->id].dropped);
		}
		/*
		 * 2.4 did wmb(); sync = 0.  Release is the right barrier: our
		 * reads of routine and data must be done before the next
		 * owner (a queue_task() on another CPU, or the routine
		 * itself) may change them.  Inside the lock hold that took
		 * the task: an unloading module that finds neither the task
		 * on our list nor its routine or task named by the run may
		 * free the task's memory at once.
		 */
		WARN_ON_ONCE(!test_bit(0, &task->sync));
		clear_bit_unlock(0, &task->sync);
		/* An unloading module waits while this names its memory. */
		if (routine) {
			run->task = task;
			run->routine = routine;
		}
		raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
		/* Can't dereference task after this point. */
		wqcompat_test_delay(WQCOMPAT_HOOK_TQ_POPPED);

		/* The previous routine returned: tell an unloading module. */
		if (called && wq_has_sleeper(&tq_runs_wait))
			wake_up_all(&tq_runs_wait);

		if (gone) {
			called = false;
			continue;
		}
		trace_wqcompat_tq_run(task, name, routine, data);
		atomic_long_inc(&wqcompat_tq_stats[run->id].run);
		called = routine != NULL;
		if (routine) {
			routine(data);
			trace_wqcompat_tq_done(task, routine);
		}
	}
	if (called && wq_has_sleeper(&tq_runs_wait))
		wake_up_all(&tq_runs_wait);
}

/**
 * wqcompat_run_task_queue() - run every task on a queue (2.4 run_task_queue)
 * @list: the queue
 *
 * Take the whole of @list off at once, then call each task's routine with
 * its data, in the order queued (FIFO), synchronously in the caller.  Each
 * task's ->sync is cleared after its routine and data were read and before
 * the routine is called, so a routine may queue its own task again: it
 * then goes onto @list for the next run, not into this one.  A task with a
 * NULL routine is taken off and not called, as in 2.4.
 *
 * Context: the caller's, which is the routines' context: a routine may
 * sleep only if the caller may.  Runs of the same queue from two CPUs at
 * once are allowed and each calls a disjoint set of tasks.
 * Return: nothing, once every task taken off @list was called (or taken
 * away by a module unloading).  Waits for the routines and nothing else.
 */
void wqcompat_run_task_queue(task_queue *list)
{
	struct tq_run run = { .id = tq_id(list) };
	unsigned long flags;

	/* 2.4's run_task_queue() peeked without the lock as well. */
	if (list_empty(list))
		return;

	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	tq_run_start(&run, list);
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
	tq_run_tasks(&run);
}
EXPORT_SYMBOL_GPL(wqcompat_run_task_queue);

/* TQUEUE_BH: bh.c calls this with bottom halves off, under the BH order. */
void wqcompat_tq_timer_bh(void)
{
	wqcompat_run_task_queue(&wqcompat_tq_timer);
	/*
	 * A routine that queued itself again armed the tick in queue_task():
	 * it runs on the next tick, once per tick.  Re-arm anyway, so that no
	 * ordering of tick and queue_task() can strand a task.
	 */
	if (TQ_ACTIVE(wqcompat_tq_timer))
		timer_reduce(&tq_tick, jiffies + 1);
}

/* IMMEDIATE_BH */
void wqcompat_tq_immediate_bh(void)
{
	wqcompat_run_task_queue(&wqcompat_tq_immediate);
}

static void tq_tick_fn(struct timer_list *timer)
{
	wqcompat_mark_bh(TQUEUE_BH);
}

/*
 * Nothing on 6.1 calls run_task_queue(&tq_disk): we do, tq_disk_delay_ms
 * after it became non-empty.  The deadline check and the splice are one
 * lock hold: tq_disk cannot be emptied and refilled between them.
 */
static void tq_disk_unplug(struct work_struct *work)
{
	struct tq_run run = { .id = WQCOMPAT_TQ_DISK };
	unsigned long flags, now;

	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	if (list_empty(&wqcompat_tq_disk)) {
		raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
		return;
	}
	now = jiffies;
	if (time_before(now, tq_disk_due)) {
		/* armed for an earlier batch: wait out this one's delay */
		unsigned long left = tq_disk_due - now;

		raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
		queue_delayed_work(system_wq, &tq_disk_work, left);
		return;
	}
	tq_run_start(&run, &wqcompat_tq_disk);
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
	tq_run_tasks(&run);
}

static unsigned int tq_drop_list(struct list_head *list,
				 enum wqcompat_tq_id id, struct module *mod)
{
	struct tq_struct *task, *next;
	unsigned int n = 0;

	list_for_each_entry_safe(task, next, list, list) {
		if (!tq_in_module(task, mod))
			continue;
		list_del_init(&task->list);
		clear_bit_unlock(0, &task->sync);
		atomic_long_inc(&wqcompat_tq_stats[id].dropped);
		n++;
	}
	return n;
}

/*
 * From now on until wqcompat_tq_going_del(), runs pop the tasks of
 * @going->mod without calling them (tq_going_take()).  Any context.
 */
void wqcompat_tq_going_add(struct wqcompat_tq_going *going)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	list_add(&going->node, &tq_going);
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
}

void wqcompat_tq_going_del(struct wqcompat_tq_going *going)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	list_del(&going->node);
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
}

/*
 * Take off every queue the shim runs, and out of every run in progress,
 * each task whose tq_struct or routine lies in @going->mod.  Counts per
 * queue into @going->per_queue; returns how many this call took.  Sets
 * *@running if a run is calling a routine of the module at this instant:
 * one that started before wqcompat_tq_going_add() (it may queue its task
 * again before it returns).  Driver-private queues are the driver's: the
 * shim cannot know them, except while a run of one is in progress.
 * Caller holds wqcompat_tq_lock, so that the result is one snapshot.
 */
unsigned int wqcompat_tq_drop_module(struct wqcompat_tq_going *going,
				     bool *running)
{
	static task_queue *const queues[] = {
		[WQCOMPAT_TQ_TIMER] = &wqcompat_tq_timer,
		[WQCOMPAT_TQ_IMMEDIATE] = &wqcompat_tq_immediate,
		[WQCOMPAT_TQ_DISK] = &wqcompat_tq_disk,
		[WQCOMPAT_TQ_CONTEXT] = &wqcompat_tq_context,
	};
	unsigned int *per_queue = going->per_queue;
	struct module *mod = going->mod;
	struct tq_run *run;
	unsigned int i, n, total = 0;

	lockdep_assert_held(&wqcompat_tq_lock);
	*running = false;
	for (i = 0; i < ARRAY_SIZE(queues); i++) {
		n = tq_drop_list(queues[i], i, mod);
		per_queue[i] += n;
		total += n;
	}
	list_for_each_entry(run, &tq_runs, node) {
		n = tq_drop_list(&run->tasks, run->id, mod);
		per_queue[run->id] += n;
		total += n;
		if (tq_run_names(run, mod))
			*running = true;
	}
	return total;
}

static bool tq_module_running(struct module *mod)
{
	unsigned long flags;
	struct tq_run *run;
	bool running = false;

	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	list_for_each_entry(run, &tq_runs, node) {
		if (tq_run_names(run, mod)) {
			running = true;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
	return running;
}

/*
 * Wait until no run_task_queue() anywhere is calling a routine of @mod.
 * With @mod on the going list none can start calling one, so this ends as
 * soon as those running return.  Process context.
 */
void wqcompat_tq_wait_module_runs(struct module *mod)
{
	might_sleep();
	wait_event(tq_runs_wait, !tq_module_running(mod));
}

int wqcompat_tq_queues_init(void)
{
	timer_setup(&tq_tick, tq_tick_fn, 0);
	return 0;
}

/*
 * Every module that used the shim is gone, and tq_module.c took its tasks
 * off: the shim's queues are empty.  Stop the tick and the unplug delay.
 */
void wqcompat_tq_queues_exit(void)
{
	timer_delete_sync(&tq_tick);
	cancel_delayed_work_sync(&tq_disk_work);
	WARN_ON(TQ_ACTIVE(wqcompat_tq_timer));
	WARN_ON(TQ_ACTIVE(wqcompat_tq_immediate));
	WARN_ON(TQ_ACTIVE(wqcompat_tq_disk));
	WARN_ON(!list_empty(&tq_runs));
}

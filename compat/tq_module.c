// SPDX-License-Identifier: GPL-2.0
/*
 * The 2.4 task-queue layer as a whole: bring-up and tear-down for main.c,
 * tunables, debugfs counters, and what happens when a driver module goes
 * away with tasks still queued.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/sysfs.h>

#include "wqcompat.h"
#include "tq_internal.h"

unsigned int wqcompat_tq_disk_delay_ms = 10;
module_param_named(tq_disk_delay_ms, wqcompat_tq_disk_delay_ms, uint, 0644);
MODULE_PARM_DESC(tq_disk_delay_ms,
		 "run tq_disk this many ms after it becomes non-empty (default 10)");

bool wqcompat_tq_misuse_warn = true;
module_param_named(misuse_warn, wqcompat_tq_misuse_warn, bool, 0644);
MODULE_PARM_DESC(misuse_warn,
		 "WARN on API misuse and on unload with tasks queued (default Y); N: one error line");

atomic_long_t wqcompat_tq_misuse;

/* The most rounds (of both layers, main.c) one module's unload took. */
static atomic_t unload_rounds_max;

/*
 * The misuse count, also in sysfs (read-only), where a test can read it:
 * debugfs files do not support kernel_read().
 */
static int misuse_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&wqcompat_tq_misuse));
}

static const struct kernel_param_ops misuse_ops = {
	.get = misuse_get,
};
module_param_cb(misuse_count, &misuse_ops, NULL, 0444);
MODULE_PARM_DESC(misuse_count, "API misuses and unloads with tasks queued so far (read-only)");

/*
 * MODULE_STATE_GOING for @mod: its exit function ran, its memory is not yet
 * freed.  Whatever of it the 2.4 layer still holds must go now.  main.c
 * drives these steps together with the 2.6 layer's (work26_going.c):
 *
 * Begin.  Put @mod on the going list: from then on a run that comes to a
 *    task of @mod takes it off without calling it (tqueue.c,
 *    tq_going_take()), and init_bh() refuses a routine of @mod (bh.c): a
 *    BH of @mod that runs during the unload cannot put itself, or another,
 *    back into a slot a round emptied.  No task routine of @mod starts
 *    after this; a BH of @mod runs only from a pass that read its slot
 *    before round 1 emptied it.
 * A round:
 * 1. Under wqcompat_tq_lock, in one hold: take off tq_timer, tq_immediate,
 *    tq_disk and keventd's queue, and out of every run in progress, each
 *    task whose tq_struct or routine lies in @mod, and clear its ->sync;
 *    empty every BH slot whose routine lies in @mod; and note whether a
 *    run is calling a routine of @mod, or a routine given a task of @mod,
 *    right now (one that started before Begin).
 * 2. If step 1 found anything, or this is the first round: wait for what
 *    had already started: the BH pass under way (it may have read a slot
 *    before step 1), and any run_task_queue() of the kind step 1 saw.
 * The rounds repeat, with the 2.6 layer's, until a round after the first
 *    finds nothing in either layer.
 * End.  Take @mod off the going list, and complain once, naming it, if
 *    anything was taken off: the driver's exit should have run or removed
 *    those itself.
 *
 * Why Begin: without it, step 2 waits for "no routine of @mod running",
 * and a task that sleeps and then schedules itself again is running at
 * almost every instant: keventd pops it again as soon as it returns, and
 * the unloading thread, woken on another CPU, can lose that race every
 * time.  With Begin, step 2 waits only for the routines already running at
 * step 1, which cannot start again.
 *
 * Why one clean step 1 is not enough, and why the rounds end: a routine
 * running during step 1 is in nobody's list (its task was popped), so
 * step 1 finds nothing of it; during step 2 it may queue its task again
 * (the "requeue yourself" idiom) or install a BH, and a 2.6 handler of
 * @mod that the 2.6 layer waits for may do the same.  The next step 1
 * takes that off, and as nothing of @mod started after Begin, the round
 * after it finds nothing: the loop ends by the third round.
 *
 * Not done: flushing keventd as a whole.  That would wait for other
 * modules' sleeping tasks, and deadlock if one of them waits for this
 * unload; step 2 waits for @mod's routines only.
 *
 * Race narrative, step 1 against a run: the run pops a task, reads its
 * routine and data, clears its ->sync and sets run->task and run->routine,
 * all in one hold of wqcompat_tq_lock.  Step 1 under the same lock either
 * finds the task still on the run's list (and takes it) or finds the run
 * naming it (and step 2 waits, and another round follows).  There is no
 * third state, and the run touches the task no more after that hold.
 */
void wqcompat_tq_going_begin(struct wqcompat_tq_going *going,
			     struct module *mod)
{
	memset(going, 0, sizeof(*going));
	going->mod = mod;
	wqcompat_tq_going_add(going);
}

bool wqcompat_tq_going_round(struct wqcompat_tq_going *going, bool first)
{
	unsigned int t, b;
	unsigned long flags;
	bool running;

	raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
	t = wqcompat_tq_drop_module(going, &running);
	b = wqcompat_bh_drop_module(going->mod);
	/* under the lock: init_bh() counts a refused one here too */
	going->bhs += b;
	raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
	if (!first && !t && !b && !running)
		return false;
	wqcompat_bh_flush();
	wqcompat_tq_wait_module_runs(going->mod);
	return true;
}

void wqcompat_tq_going_end(struct wqcompat_tq_going *going, int rounds)
{
	unsigned int tasks = 0, i;
	int old;

	wqcompat_tq_going_del(going);
	/* after the del, nothing counts into going->per_queue any more */
	for (i = 0; i < WQCOMPAT_TQ_NR; i++)
		tasks += going->per_queue[i];
	old = atomic_read(&unload_rounds_max);
	while (rounds > old &&
	       !atomic_try_cmpxchg(&unload_rounds_max, &old, rounds))
		;
	if (tasks || going->bhs)
		wqcompat_tq_complain("module %s unloaded with %u task(s) queued (tq_timer %u, tq_immediate %u, tq_disk %u, keventd %u, private runs %u) and %u bottom half(s) installed; removed them\n",
				     going->mod->name, tasks,
				     going->per_queue[WQCOMPAT_TQ_TIMER],
				     going->per_queue[WQCOMPAT_TQ_IMMEDIATE],
				     going->per_queue[WQCOMPAT_TQ_DISK],
				     going->per_queue[WQCOMPAT_TQ_CONTEXT],
				     going->per_queue[WQCOMPAT_TQ_OTHER],
				     going->bhs);
}

static int tqueue_show(struct seq_file *m, void *v)
{
	static task_queue *const queues[] = {
		[WQCOMPAT_TQ_TIMER] = &wqcompat_tq_timer,
		[WQCOMPAT_TQ_IMMEDIATE] = &wqcompat_tq_immediate,
		[WQCOMPAT_TQ_DISK] = &wqcompat_tq_disk,
		[WQCOMPAT_TQ_CONTEXT] = &wqcompat_tq_context,
	};
	unsigned int i;

	seq_puts(m, "queue        length     queued     requeued   run        flushed    dropped\n");
	for (i = 0; i < WQCOMPAT_TQ_NR; i++) {
		struct wqcompat_tq_stats *s = &wqcompat_tq_stats[i];
		long len = 0;

		if (i < ARRAY_SIZE(queues)) {
			struct list_head *pos;
			unsigned long flags;

			raw_spin_lock_irqsave(&wqcompat_tq_lock, flags);
			list_for_each(pos, queues[i])
				len++;
			raw_spin_unlock_irqrestore(&wqcompat_tq_lock, flags);
		}
		seq_printf(m, "%-12s %-10ld %-10ld %-10ld %-10ld %-10ld %ld\n",
			   wqcompat_tq_names[i], len,
			   atomic_long_read(&s->queued),
			   atomic_long_read(&s->requeued),
			   atomic_long_read(&s->run),
			   atomic_long_read(&s->flushed),
			   atomic_long_read(&s->dropped));
	}
	seq_printf(m, "flush_scheduled_tasks %ld\n",
		   atomic_long_read(&wqcompat_keventd_flushes));
	seq_printf(m, "misuse %ld\n", atomic_long_read(&wqcompat_tq_misuse));
	seq_printf(m, "unload_rounds_max %d\n",
		   atomic_read(&unload_rounds_max));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tqueue);

int wqcompat_tqueue_init(void)
{
	int ret;

	ret = wqcompat_tq_queues_init();
	if (ret)
		return ret;
	ret = wqcompat_bh_init();
	if (ret)
		goto out_queues;
	ret = wqcompat_keventd_init();
	if (ret)
		goto out_bh;
	/* debugfs is optional: an error parent makes these no-ops. */
	debugfs_create_file("tqueue", 0444, wqcompat_debugfs, NULL,
			    &tqueue_fops);
	debugfs_create_file("bh", 0444, wqcompat_debugfs, NULL,
			    wqcompat_bh_fops);
	return 0;

out_bh:
	wqcompat_bh_exit();
out_queues:
	wqcompat_tq_queues_exit();
	return ret;
}

/*
 * wqcompat.ko is unloading, so no module uses it: stop the tick and the
 * unplug delay first (they feed the BH work), then keventd, then the BH
 * work.  main.c removes the debugfs files afterwards.
 */
void wqcompat_tqueue_exit(void)
{
	wqcompat_tq_queues_exit();
	wqcompat_keventd_exit();
	wqcompat_bh_exit();
}

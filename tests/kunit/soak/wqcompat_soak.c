// SPDX-License-Identifier: GPL-2.0
/*
 * The soak: eight producers at once, six threads, a timer and a hard-IRQ
 * hrtimer, queue, arm and cancel the same legacy work items, 2.4 and 2.6,
 * through wqcompat.ko, until @cycles items have run.  With @flushes, some
 * handlers flush: the items of a single-thread queue flush that queue from
 * inside (2.6 ran the items behind them by hand), the others flush that
 * queue or the events queue from outside.  With @hotplug, a thread takes
 * the last CPU offline and back meanwhile.  Then everything is quiesced and counted
 * exactly, per item: every call that returned "newly queued" is matched
 * by one run, or by one cancel that returned nonzero.
 *
 * Only flushes that 2.6 could not deadlock on are made: a handler flushes
 * its own queue only on the single-thread queue (two handlers of one
 * per-CPU queue that flush it at once each wait for the other, on 2.6
 * too), and no queue is flushed from a queue that it flushes.
 *
 * It runs while the module loads and leaves its verdict in the parameter
 * "result" (soak.sh prints it as KTAP).  make check runs the default
 * 100,000 cycles; make soak runs 1,000,000 or more, with @flushes and
 * @hotplug.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/tqueue.h>
#include <linux/workqueue.h>

static unsigned long cycles = 100000;
module_param(cycles, ulong, 0444);
MODULE_PARM_DESC(cycles, "stop once this many items ran (default 100000)");

static bool flushes;
module_param(flushes, bool, 0444);
MODULE_PARM_DESC(flushes, "handlers flush queues, their own included (make soak: Y)");

static bool hotplug;
module_param(hotplug, bool, 0444);
MODULE_PARM_DESC(hotplug, "take the last CPU offline and back during the soak (make soak: Y)");

static char result[256] = "not run";
module_param_string(result, result, sizeof(result), 0444);

#define SOAK_THREADS	6
#define SOAK_PRODUCERS	(SOAK_THREADS + 2)	/* + a timer, an hrtimer */
#define SOAK_ITEMS	32
#define SOAK_ST_ITEMS	4	/* the first items: on the single-thread queue */
#define SOAK_FLUSH_EVERY 16	/* runs of an item between its flushes */

struct soak_count {
	atomic_long_t queued;		/* calls that returned "newly queued" */
	atomic_long_t runs;
	atomic_long_t cancelled;	/* cancels that returned nonzero */
};

struct soak_w26 {
	struct work_struct work;
	struct soak_count c;
	bool st;			/* queued on the single-thread queue only */
};

struct soak_tq {
	struct tq_struct tq;
	struct soak_count c;
};

static struct soak {
	struct workqueue_struct *wq;
	struct workqueue_struct *st;	/* single-thread: handlers flush it */
	struct soak_w26 w26[SOAK_ITEMS];
	struct soak_tq tq[SOAK_ITEMS];
	atomic_long_t ran;		/* all runs, 2.4 and 2.6 */
	atomic_long_t ops[SOAK_PRODUCERS];
	bool stop;
	atomic_t threads_left;
	struct completion threads_done;
	struct hrtimer hrt;
	struct timer_list timer;
	u32 hrt_seed, timer_seed;
	atomic_t irq_ops;		/* ops made in hard IRQ */
	atomic_long_t self_flushes, flushes;
	atomic_t hotplugs;		/* CPUs taken offline and back */
	struct task_struct *hotplug_task;
} *soak;

/* get_random_u32() takes a spinlock_t, which hard IRQ may not. */
static u32 soak_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static void soak_w26_fn(void *data)
{
	struct soak_w26 *it = data;
	long run = atomic_long_inc_return(&it->c.runs);

	atomic_long_inc(&soak->ran);
	if (!flushes || run % SOAK_FLUSH_EVERY)
		return;
	if (it->st) {
		/* its own queue: the items behind it run here, by hand */
		flush_workqueue(soak->st);
		atomic_long_inc(&soak->self_flushes);
	} else if (current_is_keventd()) {
		flush_workqueue(soak->st);
		atomic_long_inc(&soak->flushes);
	} else {
		flush_scheduled_work();
		atomic_long_inc(&soak->flushes);
	}
}

static void soak_tq_fn(void *data)
{
	struct soak_tq *it = data;

	atomic_long_inc(&it->c.runs);
	atomic_long_inc(&soak->ran);
}

/* One random operation on one random item; any context. */
static void soak_op(u32 r, int producer)
{
	struct soak_w26 *w = &soak->w26[r % SOAK_ITEMS];
	struct soak_tq *t = &soak->tq[r % SOAK_ITEMS];
	bool ok;

	switch ((r >> 8) % 7) {
	case 0:
		ok = queue_work(w->st ? soak->st : soak->wq, &w->work);
		break;
	case 1:
		ok = queue_delayed_work(w->st ? soak->st : soak->wq, &w->work,
					(r >> 16) % 3);
		break;
	case 2:
		ok = w->st ? queue_work(soak->st, &w->work) :
			     schedule_work(&w->work);
		break;
	case 3:
		if (cancel_delayed_work(&w->work))
			atomic_long_inc(&w->c.cancelled);
		ok = false;
		break;
	case 4:
		if (queue_task(&t->tq, &tq_timer))
			atomic_long_inc(&t->c.queued);
		ok = false;
		break;
	case 5:
		if (schedule_task(&t->tq))
			atomic_long_inc(&t->c.queued);
		ok = false;
		break;
	default:
		if (queue_task(&t->tq, &tq_immediate))
			atomic_long_inc(&t->c.queued);
		mark_bh(IMMEDIATE_BH);
		ok = false;
		break;
	}
	if (ok)
		atomic_long_inc(&w->c.queued);
	atomic_long_inc(&soak->ops[producer]);
}

static bool soak_done(void)
{
	return READ_ONCE(soak->stop) ||
	       atomic_long_read(&soak->ran) >= (long)cycles;
}

static int soak_thread(void *arg)
{
	int producer = (long)arg;
	u32 seed = get_random_u32() | 1;
	unsigned int i = 0;

	while (!soak_done()) {
		soak_op(soak_rand(&seed), producer);
		if (!(++i % 64))
			cond_resched();
	}
	if (atomic_dec_and_test(&soak->threads_left))
		complete(&soak->threads_done);
	return 0;
}

static enum hrtimer_restart soak_hrt(struct hrtimer *t)
{
	if (soak_done())
		return HRTIMER_NORESTART;
	if (in_hardirq())
		atomic_inc(&soak->irq_ops);
	soak_op(soak_rand(&soak->hrt_seed), SOAK_THREADS + 1);
	hrtimer_forward_now(t, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void soak_timer(struct timer_list *t)
{
	int i;

	if (soak_done())
		return;
	for (i = 0; i < 8; i++)
		soak_op(soak_rand(&soak->timer_seed), SOAK_THREADS);
	mod_timer(&soak->timer, jiffies + 1);
}

/* Take the last CPU offline and back, a tenth of a second apart. */
static int soak_hotplug(void *arg)
{
	unsigned int cpu = (long)arg;

	while (!kthread_should_stop()) {
		if (!soak_done() && !remove_cpu(cpu)) {
			schedule_timeout_interruptible(HZ / 10);
			if (add_cpu(cpu))
				pr_err("wqcompat_soak: CPU %u did not come back\n",
				       cpu);
			else
				atomic_inc(&soak->hotplugs);
		}
		schedule_timeout_interruptible(HZ / 10);
	}
	return 0;
}

/* Wait for a count to reach a value: a state, bounded by 60 s. */
static bool soak_settle(atomic_long_t *have, long want)
{
	unsigned long until = jiffies + 60 * HZ;

	while (atomic_long_read(have) < want && time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
	return atomic_long_read(have) >= want;
}

static int soak_check(long *runs_out)
{
	long runs = 0, bad = 0;
	int i;

	for (i = 0; i < SOAK_ITEMS; i++) {
		struct soak_count *w = &soak->w26[i].c, *t = &soak->tq[i].c;

		/* tq_timer and tq_immediate run without anyone to wait for */
		soak_settle(&t->runs, atomic_long_read(&t->queued));
		bad += atomic_long_read(&w->queued) !=
		       atomic_long_read(&w->runs) + atomic_long_read(&w->cancelled);
		bad += atomic_long_read(&t->queued) != atomic_long_read(&t->runs);
		runs += atomic_long_read(&w->runs) + atomic_long_read(&t->runs);
	}
	*runs_out = runs;
	return bad;
}

static int __init soak_init(void)
{
	u64 t0 = ktime_get_ns();
	long runs, ops = 0;
	int i, bad;
	bool hot;

	soak = kzalloc(sizeof(*soak), GFP_KERNEL);
	if (!soak)
		return -ENOMEM;
	soak->wq = create_workqueue("wqcompat_soak");
	soak->st = create_singlethread_workqueue("wqcompat_soak_st");
	if (!soak->wq || !soak->st) {
		if (soak->wq)
			destroy_workqueue(soak->wq);
		kfree(soak);
		return -ENOMEM;
	}
	for (i = 0; i < SOAK_ITEMS; i++) {
		soak->w26[i].st = i < SOAK_ST_ITEMS;
		INIT_WORK(&soak->w26[i].work, soak_w26_fn, &soak->w26[i]);
		INIT_TQUEUE(&soak->tq[i].tq, soak_tq_fn, &soak->tq[i]);
	}
	soak->hrt_seed = get_random_u32() | 1;
	soak->timer_seed = get_random_u32() | 1;
	atomic_set(&soak->threads_left, SOAK_THREADS);
	init_completion(&soak->threads_done);
	hrtimer_init(&soak->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	soak->hrt.function = soak_hrt;
	timer_setup(&soak->timer, soak_timer, 0);

	hrtimer_start(&soak->hrt, ns_to_ktime(200 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	mod_timer(&soak->timer, jiffies + 1);
	for (i = 0; i < SOAK_THREADS; i++) {
		struct task_struct *task;

		task = kthread_create(soak_thread, (void *)(long)i,
				      "wqcompat_soak/%d", i);
		if (IS_ERR(task)) {
			WRITE_ONCE(soak->stop, true);
			if (atomic_dec_and_test(&soak->threads_left))
				complete(&soak->threads_done);
			continue;
		}
		if (!hotplug)	/* else the scheduler spreads them */
			kthread_bind(task, i % num_online_cpus());
		wake_up_process(task);
	}
	if (hotplug && IS_ENABLED(CONFIG_HOTPLUG_CPU) && num_online_cpus() > 1)
		soak->hotplug_task = kthread_run(soak_hotplug,
						 (void *)(long)(nr_cpu_ids - 1),
						 "wqcompat_soak_hp");
	wait_for_completion(&soak->threads_done);
	WRITE_ONCE(soak->stop, true);
	if (!IS_ERR_OR_NULL(soak->hotplug_task))
		kthread_stop(soak->hotplug_task);
	hrtimer_cancel(&soak->hrt);
	timer_delete_sync(&soak->timer);

	/* Quiesce: stop timers still armed (counted), run what is queued. */
	for (i = 0; i < SOAK_ITEMS; i++)
		if (cancel_delayed_work(&soak->w26[i].work))
			atomic_long_inc(&soak->w26[i].c.cancelled);
	flush_workqueue(soak->st);
	flush_workqueue(soak->wq);
	flush_scheduled_work();
	flush_scheduled_tasks();
	bad = soak_check(&runs);
	for (i = 0; i < SOAK_PRODUCERS; i++)
		ops += atomic_long_read(&soak->ops[i]);

	hot = !IS_ERR_OR_NULL(soak->hotplug_task);
	snprintf(result, sizeof(result),
		 "%s: %ld items ran from %d producers (%d threads, a timer, a hard-IRQ hrtimer: %d ops in hard IRQ), %ld calls, %ld flushes from handlers (%ld of their own queue), %d CPU hotplugs, %llu s, %d items miscounted",
		 bad || runs < (long)cycles || !atomic_read(&soak->irq_ops) ||
		 (flushes && (!atomic_long_read(&soak->self_flushes) ||
			      !atomic_long_read(&soak->flushes))) ||
		 (hot && !atomic_read(&soak->hotplugs)) ? "not ok" : "ok",
		 runs, SOAK_PRODUCERS, SOAK_THREADS, atomic_read(&soak->irq_ops),
		 ops, atomic_long_read(&soak->flushes) +
		 atomic_long_read(&soak->self_flushes),
		 atomic_long_read(&soak->self_flushes),
		 atomic_read(&soak->hotplugs),
		 div_u64(ktime_get_ns() - t0, NSEC_PER_SEC), bad);
	pr_info("wqcompat_soak: %s\n", result);
	return 0;
}

static void __exit soak_exit(void)
{
	destroy_workqueue(soak->st);
	destroy_workqueue(soak->wq);
	kfree(soak);
}

module_init(soak_init);
module_exit(soak_exit);

MODULE_DESCRIPTION("wqport soak: eight producers queue and cancel legacy work at once");
MODULE_LICENSE("GPL");

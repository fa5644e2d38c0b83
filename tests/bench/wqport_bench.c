// SPDX-License-Identifier: GPL-2.0
/*
 * wqport_bench.ko: what the legacy API through wqcompat.ko costs against
 * the native 6.1 workqueue API, measured while the module loads.
 *
 * Theory.  The machines that run this are shared and usually emulated
 * (QEMU TCG), so an absolute time means little; a ratio of two things
 * measured side by side in the same round means more.  Each benchmark is a
 * pair of sides on the same items:
 *
 *  - native: the kernel's own calls.  The overlay <linux/workqueue.h>
 *    turns queue_work() and friends into macros; a parenthesised name,
 *    (queue_work)(wq, work), is not a macro call and reaches the kernel's
 *    inline directly, so the native side pays nothing for the overlay.
 *  - shim: the legacy call a driver makes, through wqcompat.ko.
 *
 * A round runs the same number of items on both sides, the sides taking
 * turns batch by batch (the first alternating), so that both see the same
 * load on a shared host and neither always runs on the warmer cache.  A
 * round's figure is shim / native; over the rounds we print the minimum,
 * median and maximum of that ratio, and the median of each side's absolute
 * figure.
 *
 * A side runs its items in one of two ways:
 *
 *  - ping-pong (a batch of one): stamp, queue, wait for the handler.  The
 *    handler's stamp minus the queue stamp is the queue-to-run latency with
 *    nothing queued ahead of it.  Each item costs two wake-ups of an idle
 *    CPU, 0.1 to 1 ms under TCG, so this one runs @lat_items items per
 *    round, not @items.
 *  - batch: queue @batch items back to back, then wait for the last
 *    handler.  Gives the whole batch (items per second) and the mean
 *    queue-to-run latency, or, without stamps, the queueing loop alone
 *    (the hot path).
 *
 * Waiting is always a completion that the last handler signals; nothing
 * sleeps for a time.  Nothing is judged here: the module prints figures
 * ("wqport_bench: result ..." lines), scripts/bench puts targets beside
 * them, and the module loads successfully whatever the figures are.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tqueue.h>
#include <linux/workqueue.h>

/* What the shim keeps per 2.6-API item (private to wqcompat; size only). */
#include "../../compat/work26_rec.h"

static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds per benchmark, each native and shim (default 5, at most 15)");

static unsigned int items = 100000;
module_param(items, uint, 0444);
MODULE_PARM_DESC(items, "items per side per round (default 100000)");

static unsigned int lat_items = 2000;
module_param(lat_items, uint, 0444);
MODULE_PARM_DESC(lat_items, "items per side per round in ping-pong (default 2000)");

static unsigned int batch = 1000;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "items queued back to back in batch mode (default 1000)");

static unsigned int timer_items = 100000;
module_param(timer_items, uint, 0444);
MODULE_PARM_DESC(timer_items,
		 "items per side per round for tq_timer against 1-jiffy delayed work (default 100000)");

static unsigned int timer_batch = 200;
module_param(timer_batch, uint, 0444);
MODULE_PARM_DESC(timer_batch,
		 "items queued per tick for tq_timer against 1-jiffy delayed work (default 200)");

#define BENCH_MAX_ROUNDS 15

/*
 * One item, usable by every benchmark: each side uses its own member, so a
 * legacy record that wqcompat keeps for @work26 never meets a native use.
 */
struct bench_item {
	struct tq_struct tq;		/* 2.4: schedule_task, queue_task */
	struct work_struct work26;	/* 2.6: INIT_WORK(w, f, d) */
	struct work_struct work;	/* native */
	struct delayed_work dwork;	/* native, 1 jiffy */
	u64 queued_ns;			/* ktime_get_ns() just before queueing */
};

static struct bench_item *bench_items;
static struct workqueue_struct *bench_ordered_wq;	/* like keventd's */
static struct workqueue_struct *bench_wq;		/* per-CPU, like events */
static DECLARE_TASK_QUEUE(bench_tq);			/* a driver-private queue */

/* Handlers count down to the completion; under no lock. */
static atomic_t bench_left;
static atomic64_t bench_lat_sum;
static DECLARE_COMPLETION(bench_done);

/*
 * bench_ran() - what every handler does: add its latency, count down
 * @it: the item that ran
 *
 * Context: any (a kworker, or with bottom halves off for tq_timer).
 */
static void bench_ran(struct bench_item *it)
{
	atomic64_add(ktime_get_ns() - it->queued_ns, &bench_lat_sum);
	if (atomic_dec_and_test(&bench_left))
		complete(&bench_done);
}

static void bench_legacy_fn(void *data)
{
	bench_ran(data);
}

static void bench_native_fn(struct work_struct *work)
{
	bench_ran(container_of(work, struct bench_item, work));
}

static void bench_native_dfn(struct work_struct *work)
{
	bench_ran(container_of(to_delayed_work(work), struct bench_item,
			       dwork));
}

/*
 * One side of a benchmark.  @prep runs on every item of a batch before the
 * clock starts (an INIT_WORK that is not being measured), @queue is the
 * call measured, @drain runs after the queueing loop for queues nobody
 * else runs (a driver-private task queue).
 */
struct bench_side {
	void (*prep)(struct bench_item *it);
	void (*queue)(struct bench_item *it);
	void (*drain)(void);
};

/* The native calls, past the overlay's macros. */
static void native_queue_ordered(struct bench_item *it)
{
	(queue_work)(bench_ordered_wq, &it->work);
}

static void native_delay_1(struct bench_item *it)
{
	(schedule_delayed_work)(&it->dwork, 1);
}

static void native_init(struct bench_item *it)
{
	INIT_WORK(&it->work, bench_native_fn);
}

static void native_init_queue_wq(struct bench_item *it)
{
	INIT_WORK(&it->work, bench_native_fn);
	(queue_work)(bench_wq, &it->work);
}

/* The legacy calls, through wqcompat.ko. */
static void shim_schedule_task(struct bench_item *it)
{
	schedule_task(&it->tq);
}

static void shim_queue_tq_timer(struct bench_item *it)
{
	queue_task(&it->tq, &tq_timer);
}

static void shim_queue_private(struct bench_item *it)
{
	queue_task(&it->tq, &bench_tq);
}

static void shim_run_private(void)
{
	run_task_queue(&bench_tq);
}

static void shim_init26(struct bench_item *it)
{
	INIT_WORK(&it->work26, bench_legacy_fn, it);
}

static void shim_init_queue26(struct bench_item *it)
{
	INIT_WORK(&it->work26, bench_legacy_fn, it);
	queue_work(bench_wq, &it->work26);
}

/*
 * Hot-path lines of the 2.6 API queue onto one CPU whose pool a busy
 * blocker holds (bench_hold()): the queueing loop then runs alone on its
 * CPU, with no handler of either side running beside it and taking the
 * host's time from the emulated CPU that queues, and no worker to wake.
 */
static int bench_target_cpu = WORK_CPU_UNBOUND;

static void native_queue_held(struct bench_item *it)
{
	(queue_work_on)(bench_target_cpu, bench_wq, &it->work);
}

static void native_init_queue_held(struct bench_item *it)
{
	INIT_WORK(&it->work, bench_native_fn);
	(queue_work_on)(bench_target_cpu, bench_wq, &it->work);
}

static void shim_queue26_held(struct bench_item *it)
{
	queue_work_on(bench_target_cpu, bench_wq, &it->work26);
}

static void shim_init_queue26_held(struct bench_item *it)
{
	INIT_WORK(&it->work26, bench_legacy_fn, it);
	queue_work_on(bench_target_cpu, bench_wq, &it->work26);
}

/* The blocker: busy on the target CPU (it must not sleep) until let go. */
static atomic_t bench_blocker_state;	/* 0 idle, 1 running, 2 let go */

static void bench_blocker_fn(struct work_struct *work)
{
	atomic_set(&bench_blocker_state, 1);
	while (atomic_read(&bench_blocker_state) != 2)
		cpu_relax();
}

static DECLARE_WORK(bench_blocker, bench_blocker_fn);

/*
 * bench_hold() - hold another CPU's pool of bench_wq with the blocker, and
 * stay on this CPU (preemption off) until bench_release().  Returns false
 * with one CPU online: nothing to hold, the loop then runs as it is.
 */
static bool bench_hold(void)
{
	int cpu;

	preempt_disable();
	cpu = cpumask_next(smp_processor_id(), cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	if (cpu == smp_processor_id()) {
		preempt_enable();
		return false;
	}
	bench_target_cpu = cpu;
	atomic_set(&bench_blocker_state, 0);
	(queue_work_on)(cpu, bench_wq, &bench_blocker);
	while (!atomic_read(&bench_blocker_state))
		cpu_relax();
	return true;
}

static void bench_release(void)
{
	atomic_set(&bench_blocker_state, 2);
	preempt_enable();
}

/* What one side of one round measured, in nanoseconds. */
struct bench_sample {
	u64 queue_ns;		/* the queueing loops alone */
	u64 total_ns;		/* first queue to last handler woke us */
	u64 lat_ns;		/* sum of queue-to-run latencies */
	unsigned int n;		/* items */
};

/*
 * bench_batch() - queue @k items of one side back to back, wait for them
 * @side: the calls
 * @k: items, at most the size of bench_items[]
 * @stamp: stamp each item before queueing it (for the latency)
 * @hold: queue onto another CPU whose pool is held (see bench_hold())
 * @s: what was measured is added here
 *
 * Context: process context, may sleep (waits on bench_done).
 */
static void bench_batch(const struct bench_side *side, unsigned int k,
			bool stamp, bool hold, struct bench_sample *s)
{
	unsigned int i;
	u64 t0, t1, t2;

	if (side->prep)
		for (i = 0; i < k; i++)
			side->prep(&bench_items[i]);
	atomic64_set(&bench_lat_sum, 0);
	reinit_completion(&bench_done);
	atomic_set(&bench_left, k);
	hold = hold && bench_hold();
	t0 = ktime_get_ns();
	if (stamp) {
		for (i = 0; i < k; i++) {
			bench_items[i].queued_ns = ktime_get_ns();
			side->queue(&bench_items[i]);
		}
	} else {
		for (i = 0; i < k; i++)
			side->queue(&bench_items[i]);
	}
	t1 = ktime_get_ns();
	if (hold)
		bench_release();
	if (side->drain)
		side->drain();
	wait_for_completion(&bench_done);
	t2 = ktime_get_ns();
	s->queue_ns += t1 - t0;
	s->total_ns += t2 - t0;
	s->lat_ns += atomic64_read(&bench_lat_sum);
	s->n += k;
}

/* Which figure of a sample a result line reports. */
enum bench_metric { BENCH_LAT, BENCH_TOTAL, BENCH_QUEUE };

static const char *const bench_metric_names[] = {
	[BENCH_LAT] = "latency",
	[BENCH_TOTAL] = "per_item",
	[BENCH_QUEUE] = "queue_cost",
};

/* Picoseconds per item: integer arithmetic with three decimals of ns. */
static u64 bench_ps(const struct bench_sample *s, enum bench_metric m)
{
	u64 ns = m == BENCH_LAT ? s->lat_ns :
		 m == BENCH_TOTAL ? s->total_ns : s->queue_ns;

	return s->n ? div64_u64(ns * 1000, s->n) : 0;
}

/*
 * A benchmark: two sides, how to run them, and which figures to print.
 * @metrics is a bit mask of (1 << enum bench_metric).  A benchmark that
 * reports the queueing cost does not stamp items: a clock read per item
 * would be counted on both sides and pull the ratio towards 1.
 */
struct bench {
	const char *name;
	struct bench_side native, shim;
	unsigned int *n, *per;		/* module parameters */
	unsigned int metrics;
	bool stamp;			/* stamp each item: latency is wanted */
	bool hold;			/* queue onto a held CPU: bench_hold() */
};

static unsigned int one = 1;

static const struct bench benches[] = {
	{
		.name = "schedule_task_pingpong",
		.native = { .queue = native_queue_ordered },
		.shim = { .queue = shim_schedule_task },
		.n = &lat_items, .per = &one, .stamp = true,
		.metrics = BIT(BENCH_LAT),
	}, {
		.name = "schedule_task_batch",
		.native = { .queue = native_queue_ordered },
		.shim = { .queue = shim_schedule_task },
		.n = &items, .per = &batch, .stamp = true,
		.metrics = BIT(BENCH_TOTAL) | BIT(BENCH_LAT),
	}, {
		.name = "tq_timer",
		.native = { .queue = native_delay_1 },
		.shim = { .queue = shim_queue_tq_timer },
		.n = &timer_items, .per = &timer_batch, .stamp = true,
		.metrics = BIT(BENCH_LAT) | BIT(BENCH_TOTAL),
	}, {
		.name = "init_work3_queue_work",
		.native = { .queue = native_init_queue_wq },
		.shim = { .queue = shim_init_queue26 },
		.n = &items, .per = &batch, .stamp = true,
		.metrics = BIT(BENCH_TOTAL) | BIT(BENCH_LAT),
	}, {
		.name = "schedule_task_hot",
		.native = { .queue = native_queue_ordered },
		.shim = { .queue = shim_schedule_task },
		.n = &items, .per = &batch,
		.metrics = BIT(BENCH_QUEUE),
	}, {
		.name = "queue_task_hot",
		.native = { .queue = native_queue_ordered },
		.shim = { .queue = shim_queue_private,
			  .drain = shim_run_private },
		.n = &items, .per = &batch,
		.metrics = BIT(BENCH_QUEUE),
	}, {
		.name = "init_work3_hot",
		.native = { .queue = native_init_queue_held },
		.shim = { .queue = shim_init_queue26_held },
		.n = &items, .per = &batch, .hold = true,
		.metrics = BIT(BENCH_QUEUE),
	}, {
		.name = "queue_work26_hot",
		.native = { .prep = native_init, .queue = native_queue_held },
		.shim = { .prep = shim_init26, .queue = shim_queue26_held },
		.n = &items, .per = &batch, .hold = true,
		.metrics = BIT(BENCH_QUEUE),
	},
};

/* Each round's samples of the benchmark being run, native and shim. */
static struct bench_sample bench_native_s[BENCH_MAX_ROUNDS];
static struct bench_sample bench_shim_s[BENCH_MAX_ROUNDS];

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v in place; an even count gives the mean of the middle two. */
static u64 bench_median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), bench_cmp_u64, NULL);
	return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

/* A value in thousandths as "I.FFF", in @buf (at least 24 bytes). */
static const char *bench_fix(char *buf, size_t len, u64 v)
{
	u32 frac;
	u64 whole = div_u64_rem(v, 1000, &frac);

	snprintf(buf, len, "%llu.%03u", whole, frac);
	return buf;
}

/*
 * bench_run() - run every round of one benchmark and print its result lines
 * @b: the benchmark
 *
 * One line per figure in @b->metrics:
 *	result NAME METRIC rounds=R items=N native_ns=A shim_ns=B
 *		ratio_min=X ratio_med=Y ratio_max=Z
 * A and B are the medians over the rounds of each side's ns per item; the
 * ratios are shim / native, per round.
 * Context: process context, may sleep.
 */
static void bench_run(const struct bench *b)
{
	struct bench_sample *ns = bench_native_s, *ss = bench_shim_s;
	u64 nv[BENCH_MAX_ROUNDS], sv[BENCH_MAX_ROUNDS], rv[BENCH_MAX_ROUNDS];
	unsigned int n = *b->n, per = *b->per, r, m;
	struct bench_sample warm;

	/* One batch each, not counted: pools, workers and caches warm up. */
	memset(&warm, 0, sizeof(warm));
	bench_batch(&b->native, per, b->stamp, b->hold, &warm);
	bench_batch(&b->shim, per, b->stamp, b->hold, &warm);

	/*
	 * The sides take turns batch by batch, the first alternating, so that
	 * both see the same load on a shared host.
	 */
	for (r = 0; r < rounds; r++) {
		unsigned int done, k, turn = r;

		memset(&ns[r], 0, sizeof(ns[r]));
		memset(&ss[r], 0, sizeof(ss[r]));
		for (done = 0; done < n; done += k, turn++) {
			k = min(per, n - done);
			if (turn & 1) {
				bench_batch(&b->shim, k, b->stamp, b->hold, &ss[r]);
				bench_batch(&b->native, k, b->stamp, b->hold, &ns[r]);
			} else {
				bench_batch(&b->native, k, b->stamp, b->hold, &ns[r]);
				bench_batch(&b->shim, k, b->stamp, b->hold, &ss[r]);
			}
			cond_resched();
		}
	}

	for (m = 0; m < ARRAY_SIZE(bench_metric_names); m++) {
		u64 nmed, smed, rmin, rmed, rmax;
		char f[5][24];

		if (!(b->metrics & BIT(m)))
			continue;
		for (r = 0; r < rounds; r++) {
			nv[r] = bench_ps(&ns[r], m);
			sv[r] = bench_ps(&ss[r], m);
			rv[r] = nv[r] ? div64_u64(sv[r] * 1000, nv[r]) : 0;
		}
		nmed = bench_median(nv, rounds);
		smed = bench_median(sv, rounds);
		rmed = bench_median(rv, rounds);	/* sorted now */
		rmin = rv[0];
		rmax = rv[rounds - 1];
		pr_info("result %s %s rounds=%u items=%u native_ns=%s shim_ns=%s ratio_min=%s ratio_med=%s ratio_max=%s\n",
			b->name, bench_metric_names[m], rounds, n,
			bench_fix(f[0], sizeof(f[0]), nmed),
			bench_fix(f[1], sizeof(f[1]), smed),
			bench_fix(f[2], sizeof(f[2]), rmin),
			bench_fix(f[3], sizeof(f[3]), rmed),
			bench_fix(f[4], sizeof(f[4]), rmax));
	}
}

/*
 * Bytes per item, legacy against native.  A 2.4 task is a bare tq_struct:
 * the shim keeps nothing else per task.  A 2.6-API item is a modern
 * work_struct plus the record wqcompat binds to its address (handler,
 * data, owner, the legacy timer), taken from a preallocated pool.
 */
static void bench_memory(void)
{
	size_t rec = sizeof(struct wqcompat_work26_rec);

	pr_info("memory schedule_task legacy=%zu native=%zu what=tq_struct/work_struct\n",
		sizeof(struct tq_struct), sizeof(struct work_struct));
	pr_info("memory tq_timer legacy=%zu native=%zu what=tq_struct/delayed_work\n",
		sizeof(struct tq_struct), sizeof(struct delayed_work));
	pr_info("memory work26 legacy=%zu native=%zu what=work_struct+record/work_struct\n",
		sizeof(struct work_struct) + rec, sizeof(struct work_struct));
	pr_info("memory delayed_work26 legacy=%zu native=%zu what=work_struct+record/delayed_work\n",
		sizeof(struct work_struct) + rec, sizeof(struct delayed_work));
	pr_info("memory record size=%zu\n", rec);
}

static int __init bench_init(void)
{
	unsigned int i, n = max(batch, timer_batch);
	u64 t0 = ktime_get_ns();

	if (!rounds || rounds > BENCH_MAX_ROUNDS || !items || !lat_items ||
	    !batch || !timer_items || !timer_batch)
		return -EINVAL;
	bench_items = kcalloc(n, sizeof(*bench_items), GFP_KERNEL);
	bench_ordered_wq = alloc_ordered_workqueue("wqport_bench_ord", 0);
	bench_wq = alloc_workqueue("wqport_bench", 0, 0);
	if (!bench_items || !bench_ordered_wq || !bench_wq)
		goto nomem;
	for (i = 0; i < n; i++) {
		struct bench_item *it = &bench_items[i];

		INIT_TQUEUE(&it->tq, bench_legacy_fn, it);
		INIT_WORK(&it->work, bench_native_fn);
		INIT_DELAYED_WORK(&it->dwork, bench_native_dfn);
	}

	pr_info("begin rounds=%u items=%u lat_items=%u batch=%u timer_items=%u timer_batch=%u HZ=%u cpus=%u\n",
		rounds, items, lat_items, batch, timer_items, timer_batch, HZ,
		num_online_cpus());
	bench_memory();
	for (i = 0; i < ARRAY_SIZE(benches); i++)
		bench_run(&benches[i]);
	pr_info("end seconds=%llu\n", div_u64(ktime_get_ns() - t0, NSEC_PER_SEC));
	return 0;

nomem:
	if (bench_wq)
		destroy_workqueue(bench_wq);
	if (bench_ordered_wq)
		destroy_workqueue(bench_ordered_wq);
	kfree(bench_items);
	return -ENOMEM;
}

/* Every item ran before bench_init() returned: nothing is queued. */
static void __exit bench_exit(void)
{
	destroy_workqueue(bench_wq);
	destroy_workqueue(bench_ordered_wq);
	kfree(bench_items);
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_DESCRIPTION("wqport benchmark: legacy API through wqcompat against native workqueues");
MODULE_LICENSE("GPL");

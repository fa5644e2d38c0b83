// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the 2.4 task-queue and bottom-half API of wqcompat.ko:
 * one test (at least) per promise of the 2.4 layer, written against the 2.4
 * names exactly as a 2.4 driver spells them.
 *
 * Synchronisation is by completions, flushes and the API's own ordering
 * guarantees (FIFO queues, BH number order), never by sleeping.  Timeouts
 * on completions only turn a hang into a failure.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/tqueue.h>
#include <linux/version.h>

#include "wqcompat_quiet.h"

#define TQT_TIMEOUT	(30 * HZ)	/* a hang, not a schedule */

/* ---- helpers ----------------------------------------------------------- */

/* A task that records its runs. */
struct tqt_probe {
	struct tq_struct tq;
	atomic_t runs;
	int id;
	int *log;		/* optional: append id to log[*log_len] */
	atomic_t *log_len;
	struct completion done;	/* completed on each run */
	bool in_softirq, atomic, keventd, in_task, serving_softirq;
	unsigned long jiffies;
	struct task_struct *who;
};

static void tqt_probe_fn(void *data)
{
	struct tqt_probe *p = data;

	p->in_softirq = in_softirq();
	p->serving_softirq = in_serving_softirq();
	p->atomic = !preemptible();
	p->in_task = in_task();
	p->keventd = current_is_keventd();
	p->jiffies = jiffies;
	WRITE_ONCE(p->who, current);
	if (p->log)
		p->log[atomic_inc_return(p->log_len) - 1] = p->id;
	atomic_inc(&p->runs);
	complete(&p->done);
}

static void tqt_probe_init(struct tqt_probe *p, int id, int *log,
			   atomic_t *log_len)
{
	INIT_TQUEUE(&p->tq, tqt_probe_fn, p);
	atomic_set(&p->runs, 0);
	p->id = id;
	p->log = log;
	p->log_len = log_len;
	init_completion(&p->done);
}

static bool tqt_wait(struct completion *c)
{
	return wait_for_completion_timeout(c, TQT_TIMEOUT) != 0;
}

/* Write or read a small file (sysfs parameter, debugfs counter). */
static int tqt_write_file(const char *path, const char *s)
{
	struct file *f = filp_open(path, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, s, strlen(s), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

static ssize_t tqt_read_file(const char *path, char *buf, size_t len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

#define TQT_MISUSE_PARAM "/sys/module/wqcompat/parameters/misuse_warn"

#define TQT_MISUSE_COUNT "/sys/module/wqcompat/parameters/misuse_count"

/* How many misuses the shim has counted, or -1. */
static long tqt_misuse_count(void)
{
	char buf[32];
	long n;

	if (tqt_read_file(TQT_MISUSE_COUNT, buf, sizeof(buf)) <= 0 ||
	    kstrtol(buf, 10, &n) < 0)
		return -1;
	return n;
}

/* ---- struct tq_struct and its initializers ----------------------------- */

static void tqt_count_fn(void *data)
{
	atomic_inc(data);
}

static atomic_t tqt_static_hits;
/* GNU old-style, as 2.4 drivers wrote them */
static struct tq_struct tqt_gnu = { routine: tqt_count_fn, data: &tqt_static_hits };
/* C99 designated */
static struct tq_struct tqt_c99 = { .routine = tqt_count_fn, .data = &tqt_static_hits };
/* positional */
static struct tq_struct tqt_pos = { { NULL, NULL }, 0, tqt_count_fn, &tqt_static_hits };

/* Promise: 2.4's layout, and every way a 2.4 driver sets a task up works. */
static void tq_struct_layout_and_initializers(struct kunit *test)
{
	DECLARE_TASK_QUEUE(q);
	struct tq_struct init, prep, stores, *zalloc;

	KUNIT_EXPECT_EQ(test, offsetof(struct tq_struct, list), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct tq_struct, sync),
			sizeof(struct list_head));
	KUNIT_EXPECT_EQ(test, offsetof(struct tq_struct, routine),
			sizeof(struct list_head) + sizeof(unsigned long));
	KUNIT_EXPECT_EQ(test, offsetof(struct tq_struct, data),
			sizeof(struct list_head) + sizeof(unsigned long) +
			sizeof(void *));
	KUNIT_EXPECT_EQ(test, sizeof(struct tq_struct),
			sizeof(struct list_head) + sizeof(unsigned long) +
			2 * sizeof(void *));

	INIT_TQUEUE(&init, tqt_count_fn, &tqt_static_hits);
	memset(&prep, 0, sizeof(prep));
	PREPARE_TQUEUE(&prep, tqt_count_fn, &tqt_static_hits);
	memset(&stores, 0, sizeof(stores));
	stores.routine = tqt_count_fn;
	stores.data = &tqt_static_hits;
	zalloc = kunit_kzalloc(test, sizeof(*zalloc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, zalloc);
	zalloc->routine = tqt_count_fn;
	zalloc->data = &tqt_static_hits;

	atomic_set(&tqt_static_hits, 0);
	KUNIT_EXPECT_FALSE(test, TQ_ACTIVE(q));
	KUNIT_EXPECT_EQ(test, queue_task(&tqt_gnu, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&tqt_c99, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&tqt_pos, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&init, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&prep, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&stores, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(zalloc, &q), 1);
	KUNIT_EXPECT_TRUE(test, TQ_ACTIVE(q));
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, atomic_read(&tqt_static_hits), 7);
	KUNIT_EXPECT_FALSE(test, TQ_ACTIVE(q));
	KUNIT_EXPECT_EQ(test, tqt_gnu.sync, 0UL);
	KUNIT_EXPECT_EQ(test, zalloc->sync, 0UL);
}

/* ---- queue_task and run_task_queue ------------------------------------- */

/* Promise: queue_task returns 1 only when newly queued. */
static void queue_task_return_values(struct kunit *test)
{
	DECLARE_TASK_QUEUE(q);
	DECLARE_TASK_QUEUE(other);
	struct tqt_probe p;

	tqt_probe_init(&p, 0, NULL, NULL);
	KUNIT_EXPECT_EQ(test, queue_task(&p.tq, &q), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&p.tq, &q), 0);
	/* already queued: not moved to another queue either */
	KUNIT_EXPECT_EQ(test, queue_task(&p.tq, &other), 0);
	KUNIT_EXPECT_FALSE(test, TQ_ACTIVE(other));
	run_task_queue(&other);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 0);
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 1);
	KUNIT_EXPECT_EQ(test, queue_task(&p.tq, &q), 1);
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 2);
	/* running an empty queue does nothing */
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 2);
}

/* Promise: run_task_queue is synchronous in the caller and FIFO. */
static void run_task_queue_fifo_synchronous(struct kunit *test)
{
	enum { N = 16 };
	DECLARE_TASK_QUEUE(q);
	struct tqt_probe *p = kunit_kzalloc(test, N * sizeof(*p), GFP_KERNEL);
	int log[N];
	atomic_t log_len = ATOMIC_INIT(0);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < N; i++) {
		tqt_probe_init(&p[i], i, log, &log_len);
		KUNIT_ASSERT_EQ(test, queue_task(&p[i].tq, &q), 1);
	}
	run_task_queue(&q);
	/* every routine ran before run_task_queue returned, here, in order */
	KUNIT_ASSERT_EQ(test, atomic_read(&log_len), N);
	for (i = 0; i < N; i++) {
		KUNIT_EXPECT_EQ(test, log[i], i);
		KUNIT_EXPECT_PTR_EQ(test, p[i].who, current);
		KUNIT_EXPECT_EQ(test, p[i].tq.sync, 0UL);
	}
}

struct tqt_requeuer {
	struct tq_struct tq;
	task_queue *q;
	int runs;
	int requeue_ret;
	bool stop;
};

static void tqt_requeue_fn(void *data)
{
	struct tqt_requeuer *r = data;

	r->runs++;
	if (!r->stop)
		r->requeue_ret = queue_task(&r->tq, r->q);
}

/* Promise: splice semantics: a routine that requeues itself runs next run. */
static void run_task_queue_requeue_goes_to_next_run(struct kunit *test)
{
	DECLARE_TASK_QUEUE(q);
	struct tqt_requeuer r = { .q = &q };
	struct tqt_probe after;
	struct tq_struct null_routine;
	int log[4];
	atomic_t log_len = ATOMIC_INIT(0);

	INIT_TQUEUE(&r.tq, tqt_requeue_fn, &r);
	tqt_probe_init(&after, 7, log, &log_len);
	INIT_TQUEUE(&null_routine, NULL, NULL);
	KUNIT_ASSERT_EQ(test, queue_task(&r.tq, &q), 1);
	KUNIT_ASSERT_EQ(test, queue_task(&null_routine, &q), 1);
	KUNIT_ASSERT_EQ(test, queue_task(&after.tq, &q), 1);
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, r.runs, 1);
	KUNIT_EXPECT_EQ(test, r.requeue_ret, 1);	/* sync was clear */
	KUNIT_EXPECT_EQ(test, atomic_read(&after.runs), 1);
	KUNIT_EXPECT_EQ(test, null_routine.sync, 0UL);	/* taken off, not called */
	KUNIT_EXPECT_TRUE(test, TQ_ACTIVE(q));
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, r.runs, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&after.runs), 1);
	r.stop = true;
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, r.runs, 3);
	KUNIT_EXPECT_FALSE(test, TQ_ACTIVE(q));
	run_task_queue(&q);
	KUNIT_EXPECT_EQ(test, r.runs, 3);
}

/* ---- tq_timer, tq_immediate, bottom halves ----------------------------- */

/* Promise: tq_timer runs on the next tick, atomic with bottom halves off. */
static void tq_timer_runs_next_tick_atomic(struct kunit *test)
{
	struct tqt_probe p;
	unsigned long j0;

	tqt_probe_init(&p, 0, NULL, NULL);
	j0 = jiffies;
	KUNIT_ASSERT_EQ(test, queue_task(&p.tq, &tq_timer), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&p.done));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 1);
	KUNIT_EXPECT_TRUE(test, time_after(p.jiffies, j0));
	KUNIT_EXPECT_TRUE(test, p.in_softirq);
	KUNIT_EXPECT_TRUE(test, p.atomic);
	/* With BH workqueues (6.9), bottom halves run in a softirq, as 2.4's. */
	if (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0))
		KUNIT_EXPECT_TRUE(test, p.serving_softirq);
	KUNIT_EXPECT_FALSE(test, p.keventd);
}

struct tqt_ticker {
	struct tq_struct tq;
	int n, max;
	unsigned long at[32];
	struct completion done;
};

static void tqt_ticker_fn(void *data)
{
	struct tqt_ticker *t = data;

	t->at[t->n++] = jiffies;
	if (t->n < t->max)
		queue_task(&t->tq, &tq_timer);
	else
		complete(&t->done);
}

/* Promise: "requeue yourself on tq_timer" gives one run per tick. */
static void tq_timer_self_requeue_once_per_tick(struct kunit *test)
{
	struct tqt_ticker *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->max = ARRAY_SIZE(t->at);
	init_completion(&t->done);
	INIT_TQUEUE(&t->tq, tqt_ticker_fn, t);
	KUNIT_ASSERT_EQ(test, queue_task(&t->tq, &tq_timer), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&t->done));
	KUNIT_EXPECT_EQ(test, t->n, t->max);
	for (i = 1; i < t->max; i++)
		KUNIT_EXPECT_TRUE(test, time_after(t->at[i], t->at[i - 1]));
}

struct tqt_immediate_check {
	struct tq_struct tq;
	struct tqt_probe *imm;
	int imm_runs_seen;
	struct completion done;
};

static void tqt_check_imm_fn(void *data)
{
	struct tqt_immediate_check *c = data;

	c->imm_runs_seen = atomic_read(&c->imm->runs);
	complete(&c->done);
}

/* Promise: tq_immediate runs when mark_bh(IMMEDIATE_BH) is called (only). */
static void tq_immediate_runs_on_mark_bh(struct kunit *test)
{
	struct tqt_probe imm;
	struct tqt_immediate_check c = { .imm = &imm };

	tqt_probe_init(&imm, 0, NULL, NULL);
	init_completion(&c.done);
	INIT_TQUEUE(&c.tq, tqt_check_imm_fn, &c);
	KUNIT_ASSERT_EQ(test, queue_task(&imm.tq, &tq_immediate), 1);
	/*
	 * A BH pass without IMMEDIATE_BH marked: tq_timer's routine looks.
	 * (Another test or driver may mark IMMEDIATE_BH meanwhile; nothing
	 * else runs in this test module at the same time.)
	 */
	KUNIT_ASSERT_EQ(test, queue_task(&c.tq, &tq_timer), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&c.done));
	KUNIT_EXPECT_EQ(test, c.imm_runs_seen, 0);
	mark_bh(IMMEDIATE_BH);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&imm.done));
	KUNIT_EXPECT_EQ(test, atomic_read(&imm.runs), 1);
	KUNIT_EXPECT_TRUE(test, imm.in_softirq);
	KUNIT_EXPECT_TRUE(test, imm.atomic);
	if (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0))
		KUNIT_EXPECT_TRUE(test, imm.serving_softirq);
}

/* BH number order and exclusion */
static int tqt_bh_log[8];
static atomic_t tqt_bh_log_len;
static struct completion tqt_bh_done;

static void tqt_bh_log_add(int nr)
{
	int i = atomic_inc_return(&tqt_bh_log_len) - 1;

	if (i < ARRAY_SIZE(tqt_bh_log))
		tqt_bh_log[i] = nr;
}

static void tqt_digi_bh(void)
{
	tqt_bh_log_add(DIGI_BH);
	/* marked during a pass: they run in the next pass, in number order */
	mark_bh(CYCLADES_BH);
	mark_bh(IMMEDIATE_BH);
	mark_bh(SERIAL_BH);
}

static void tqt_serial_bh(void)
{
	tqt_bh_log_add(SERIAL_BH);
}

static void tqt_immediate_logger(void *data)
{
	tqt_bh_log_add(IMMEDIATE_BH);
}

static void tqt_cyclades_bh(void)
{
	tqt_bh_log_add(CYCLADES_BH);
	complete(&tqt_bh_done);
}

/* Promise: init_bh'd bottom halves run on mark_bh, in number order. */
static void bh_run_in_number_order(struct kunit *test)
{
	struct tq_struct imm;

	atomic_set(&tqt_bh_log_len, 0);
	init_completion(&tqt_bh_done);
	INIT_TQUEUE(&imm, tqt_immediate_logger, NULL);
	KUNIT_ASSERT_EQ(test, queue_task(&imm, &tq_immediate), 1);
	init_bh(DIGI_BH, tqt_digi_bh);
	init_bh(SERIAL_BH, tqt_serial_bh);
	init_bh(CYCLADES_BH, tqt_cyclades_bh);
	mark_bh(DIGI_BH);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&tqt_bh_done));
	remove_bh(DIGI_BH);
	remove_bh(SERIAL_BH);
	remove_bh(CYCLADES_BH);
	KUNIT_ASSERT_EQ(test, atomic_read(&tqt_bh_log_len), 4);
	KUNIT_EXPECT_EQ(test, tqt_bh_log[0], DIGI_BH);
	KUNIT_EXPECT_EQ(test, tqt_bh_log[1], SERIAL_BH);
	KUNIT_EXPECT_EQ(test, tqt_bh_log[2], IMMEDIATE_BH);
	KUNIT_EXPECT_EQ(test, tqt_bh_log[3], CYCLADES_BH);
}

/* remove_bh waits for a running BH, and a removed BH never runs */
static struct completion tqt_slow_started;
static atomic_t tqt_slow_runs, tqt_slow_finished;

static void tqt_slow_bh(void)
{
	atomic_inc(&tqt_slow_runs);
	complete(&tqt_slow_started);
	mdelay(20);	/* busy: a long BH, still atomic */
	atomic_set(&tqt_slow_finished, 1);
}

static struct completion tqt_probe_bh_done;

static void tqt_probe_bh(void)
{
	complete(&tqt_probe_bh_done);
}

/* Promise: remove_bh waits for the running BH; afterwards it never runs. */
static void remove_bh_waits_and_stops(struct kunit *test)
{
	init_completion(&tqt_slow_started);
	init_completion(&tqt_probe_bh_done);
	atomic_set(&tqt_slow_runs, 0);
	atomic_set(&tqt_slow_finished, 0);
	init_bh(RISCOM8_BH, tqt_slow_bh);
	init_bh(SPECIALIX_BH, tqt_probe_bh);
	mark_bh(RISCOM8_BH);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&tqt_slow_started));
	remove_bh(RISCOM8_BH);
	KUNIT_EXPECT_EQ(test, atomic_read(&tqt_slow_finished), 1);
	/* marked after removal: the pass runs the probe, not the slot */
	mark_bh(RISCOM8_BH);
	mark_bh(SPECIALIX_BH);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&tqt_probe_bh_done));
	remove_bh(SPECIALIX_BH);
	KUNIT_EXPECT_EQ(test, atomic_read(&tqt_slow_runs), 1);
}

/*
 * Promise: a spinlock shared between a kernel timer (softirq) and a
 * tq_timer routine needs nothing but spin_lock() in both, as on 2.4:
 * tq_timer routines run with bottom halves off, so lockdep sees the lock
 * taken in softirq and only ever with softirqs disabled elsewhere.  The
 * proof is lockdep's, on the debug kernel (it stays quiet:
 * wqcompat_quiet.h); everywhere, both sides must have taken the lock each
 * round (a timer that never ran proves nothing).
 */
static DEFINE_SPINLOCK(tqt_shared_lock);
static int tqt_shared_timer_count, tqt_shared_tq_count;
static struct completion tqt_shared_timer_done;

static void tqt_shared_timer_fn(struct timer_list *t)
{
	spin_lock(&tqt_shared_lock);
	tqt_shared_timer_count++;
	spin_unlock(&tqt_shared_lock);
	complete(&tqt_shared_timer_done);
}

static void tqt_shared_tq_fn(void *data)
{
	spin_lock(&tqt_shared_lock);
	tqt_shared_tq_count++;
	spin_unlock(&tqt_shared_lock);
	complete(data);
}

static void tq_timer_shares_lock_with_timer(struct kunit *test)
{
	struct timer_list timer;
	struct completion done;
	struct wqt_quiet q = wqt_quiet_now();
	struct tq_struct tq;
	int i;

	tqt_shared_timer_count = 0;
	tqt_shared_tq_count = 0;
	timer_setup_on_stack(&timer, tqt_shared_timer_fn, 0);
	for (i = 0; i < 5; i++) {
		init_completion(&done);
		init_completion(&tqt_shared_timer_done);
		INIT_TQUEUE(&tq, tqt_shared_tq_fn, &done);
		mod_timer(&timer, jiffies + 1);
		KUNIT_ASSERT_EQ(test, queue_task(&tq, &tq_timer), 1);
		KUNIT_ASSERT_TRUE(test, tqt_wait(&done));
		KUNIT_ASSERT_TRUE(test, tqt_wait(&tqt_shared_timer_done));
	}
	del_timer_sync(&timer);
	destroy_timer_on_stack(&timer);
	/* process context takes it with spin_lock_bh, as 2.4 drivers did */
	spin_lock_bh(&tqt_shared_lock);
	KUNIT_EXPECT_EQ(test, tqt_shared_timer_count, 5);
	KUNIT_EXPECT_EQ(test, tqt_shared_tq_count, 5);
	spin_unlock_bh(&tqt_shared_lock);
	WQT_EXPECT_QUIET(test, q);
}

/* ---- tq_disk ----------------------------------------------------------- */

/*
 * Queue P on tq_disk and run the queue: true when this run ran it.  The
 * unplug delay (10 ms) takes it first when this thread stalls that long
 * between the two calls (a loaded host): then it has to run once there.
 */
static bool tqt_disk_run_here(struct kunit *test, struct tqt_probe *p)
{
	int before = atomic_read(&p->runs);

	reinit_completion(&p->done);
	WRITE_ONCE(p->who, NULL);
	KUNIT_ASSERT_EQ(test, queue_task(&p->tq, &tq_disk), 1);
	run_task_queue(&tq_disk);
	if (READ_ONCE(p->who) == current) {
		KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), before + 1);
		return true;
	}
	KUNIT_ASSERT_TRUE(test, tqt_wait(&p->done));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->runs), before + 1);
	return false;
}

/*
 * Promise: tq_disk runs on an explicit run_task_queue(&tq_disk), in the
 * caller, and again when queued again ...
 */
static void tq_disk_explicit_run(struct kunit *test)
{
	struct tqt_probe p;
	int round, tries, calls = 0;

	tqt_probe_init(&p, 0, NULL, NULL);
	for (round = 0; round < 2; round++) {
		for (tries = 0; tries < 5; tries++) {
			calls++;
			if (tqt_disk_run_here(test, &p))
				break;
		}
		/* else the unplug delay ran it in each of 5 tries */
		KUNIT_EXPECT_LT(test, tries, 5);
	}
	/* once per queueing in all: no late second run by the unplug work */
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), calls);
}

/* ... and, since nothing calls that on 6.1, after the unplug delay. */
static void tq_disk_runs_after_delay(struct kunit *test)
{
	struct tqt_probe p;
	unsigned long j0;

	tqt_probe_init(&p, 0, NULL, NULL);
	j0 = jiffies;
	KUNIT_ASSERT_EQ(test, queue_task(&p.tq, &tq_disk), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&p.done));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 1);
	KUNIT_EXPECT_TRUE(test, p.in_task);
	KUNIT_EXPECT_FALSE(test, p.atomic);
	KUNIT_EXPECT_TRUE(test, time_after(p.jiffies, j0));
}

/* ---- schedule_task, flush_scheduled_tasks, current_is_keventd ---------- */

struct tqt_sched {
	struct tq_struct tq;
	int id;
	atomic_t *inside;
	atomic_t *overlap;
	int *log;
	atomic_t *log_len;
	bool keventd, sleepable;
	atomic_t runs;
};

static void tqt_sched_fn(void *data)
{
	struct tqt_sched *s = data;

	if (atomic_inc_return(s->inside) != 1)
		atomic_inc(s->overlap);
	s->keventd = current_is_keventd();
	s->sleepable = preemptible() && in_task();
	might_sleep();
	usleep_range(1000, 2000);	/* may sleep: process context */
	s->log[atomic_inc_return(s->log_len) - 1] = s->id;
	atomic_inc(&s->runs);
	atomic_dec(s->inside);
}

/*
 * Promise: schedule_task routines run in process context, may sleep, one
 * at a time, in order; flush_scheduled_tasks waits for all queued before.
 */
static void schedule_task_process_context_fifo(struct kunit *test)
{
	enum { N = 8 };
	struct tqt_sched *s = kunit_kzalloc(test, N * sizeof(*s), GFP_KERNEL);
	atomic_t inside = ATOMIC_INIT(0), overlap = ATOMIC_INIT(0);
	atomic_t log_len = ATOMIC_INIT(0);
	int log[N], i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_FALSE(test, current_is_keventd());
	for (i = 0; i < N; i++) {
		s[i] = (struct tqt_sched){ .id = i, .inside = &inside,
			.overlap = &overlap, .log = log, .log_len = &log_len };
		INIT_TQUEUE(&s[i].tq, tqt_sched_fn, &s[i]);
		KUNIT_ASSERT_EQ(test, schedule_task(&s[i].tq), 1);
	}
	flush_scheduled_tasks();
	KUNIT_ASSERT_EQ(test, atomic_read(&log_len), N);
	KUNIT_EXPECT_EQ(test, atomic_read(&overlap), 0);
	for (i = 0; i < N; i++) {
		KUNIT_EXPECT_EQ(test, log[i], i);
		KUNIT_EXPECT_EQ(test, atomic_read(&s[i].runs), 1);
		KUNIT_EXPECT_TRUE(test, s[i].keventd);
		KUNIT_EXPECT_TRUE(test, s[i].sleepable);
	}
}

/* A keventd routine interrupted by a hard-IRQ timer on its own CPU. */
struct tqt_irq_ask {
	struct tq_struct tq;
	struct hrtimer hrt;
	int in_irq_answer;		/* current_is_keventd() in the IRQ */
	bool in_hardirq;
	atomic_t fired;
	struct completion done;
};

static enum hrtimer_restart tqt_irq_ask_fn(struct hrtimer *t)
{
	struct tqt_irq_ask *a = container_of(t, struct tqt_irq_ask, hrt);

	a->in_hardirq = in_hardirq();
	a->in_irq_answer = current_is_keventd();
	atomic_set(&a->fired, 1);
	return HRTIMER_NORESTART;
}

static void tqt_irq_ask_routine(void *data)
{
	struct tqt_irq_ask *a = data;
	unsigned long until = jiffies + TQT_TIMEOUT;

	/* Pinned, and we stay: the interrupt comes into this routine. */
	preempt_disable();
	hrtimer_start(&a->hrt, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!atomic_read(&a->fired) && time_before(jiffies, until))
		cpu_relax();
	preempt_enable();
	complete(&a->done);
}

/*
 * Promise: current_is_keventd() from hard IRQ tells about the interrupted
 * task, as 2.4's did ("current == keventd"): 1 when the interrupt came
 * into a scheduled task.
 */
static void current_is_keventd_from_hardirq(struct kunit *test)
{
	struct tqt_irq_ask *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&a->done);
	hrtimer_init(&a->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	a->hrt.function = tqt_irq_ask_fn;
	INIT_TQUEUE(&a->tq, tqt_irq_ask_routine, a);
	KUNIT_ASSERT_EQ(test, schedule_task(&a->tq), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&a->done));
	hrtimer_cancel(&a->hrt);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->fired), 1);
	KUNIT_EXPECT_TRUE(test, a->in_hardirq);
	KUNIT_EXPECT_EQ(test, a->in_irq_answer, 1);
}

struct tqt_gate {
	struct tq_struct tq;
	struct completion entered, open;
};

static void tqt_gate_fn(void *data)
{
	struct tqt_gate *g = data;

	complete(&g->entered);
	wait_for_completion(&g->open);
}

/* Promise: schedule_task returns 1 only when newly queued. */
static void schedule_task_return_values(struct kunit *test)
{
	struct tqt_gate gate;
	struct tqt_probe p;

	init_completion(&gate.entered);
	init_completion(&gate.open);
	INIT_TQUEUE(&gate.tq, tqt_gate_fn, &gate);
	tqt_probe_init(&p, 0, NULL, NULL);
	KUNIT_ASSERT_EQ(test, schedule_task(&gate.tq), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&gate.entered));
	/* keventd is busy with the gate: p stays queued */
	KUNIT_EXPECT_EQ(test, schedule_task(&p.tq), 1);
	KUNIT_EXPECT_EQ(test, schedule_task(&p.tq), 0);
	KUNIT_EXPECT_EQ(test, queue_task(&p.tq, &tq_timer), 0);
	/* the gate runs: scheduling it again queues it anew */
	KUNIT_EXPECT_EQ(test, schedule_task(&gate.tq), 1);
	complete_all(&gate.open);
	flush_scheduled_tasks();
	KUNIT_EXPECT_EQ(test, atomic_read(&p.runs), 1);
	KUNIT_EXPECT_TRUE(test, p.keventd);
}

struct tqt_forever {
	struct tq_struct tq;
	atomic_t runs;
	atomic_t stop;
};

static void tqt_forever_fn(void *data)
{
	struct tqt_forever *f = data;

	atomic_inc(&f->runs);
	if (!atomic_read(&f->stop))
		schedule_task(&f->tq);
}

/* Promise: flush_scheduled_tasks returns although tasks requeue themselves. */
static void flush_scheduled_tasks_self_requeue(struct kunit *test)
{
	struct tqt_forever f = { .runs = ATOMIC_INIT(0), .stop = ATOMIC_INIT(0) };
	struct tqt_probe before;
	int i;

	tqt_probe_init(&before, 0, NULL, NULL);
	INIT_TQUEUE(&f.tq, tqt_forever_fn, &f);
	KUNIT_ASSERT_EQ(test, schedule_task(&f.tq), 1);
	KUNIT_ASSERT_EQ(test, schedule_task(&before.tq), 1);
	for (i = 0; i < 10; i++)
		flush_scheduled_tasks();
	KUNIT_EXPECT_EQ(test, atomic_read(&before.runs), 1);
	KUNIT_EXPECT_GE(test, atomic_read(&f.runs), 10);
	atomic_set(&f.stop, 1);
	/* one flush lets the last requeue run; the second waits for it */
	flush_scheduled_tasks();
	flush_scheduled_tasks();
	KUNIT_EXPECT_EQ(test, f.tq.sync, 0UL);
}

/* ---- concurrency: return values and exact counts under stress ---------- */

#define TQT_POOL	64
#define TQT_THREADS	4
#define TQT_TARGET	100000

enum tqt_where { TQT_PRIVATE, TQT_TIMER, TQT_IMMEDIATE, TQT_KEVENTD, TQT_NWHERE };

struct tqt_stress;

struct tqt_stask {
	struct tq_struct tq;
	struct tqt_stress *st;
	atomic_long_t newly;	/* queue_task/schedule_task returned 1 */
	atomic_long_t runs;
};

struct tqt_stress {
	struct tqt_stask task[TQT_NWHERE][TQT_POOL];
	task_queue private_q;		/* a driver's own queue */
	atomic_long_t total;		/* newly queued, all contexts */
	atomic_long_t from_hardirq, from_softirq, from_thread;
	atomic_t bh_inside, bh_overlap, bh_not_atomic;
	atomic_t stop;
	struct hrtimer hrt;
	struct timer_list timer;
	unsigned int hr_seq, timer_seq;
	struct completion sentinel_done[TQT_NWHERE];
};

static void tqt_stress_fn(void *data)
{
	struct tqt_stask *t = data;

	atomic_long_inc(&t->runs);
}

static void tqt_stress_bh_fn(void *data)
{
	struct tqt_stask *t = data;
	struct tqt_stress *st = t->st;

	if (atomic_inc_return(&st->bh_inside) != 1)
		atomic_inc(&st->bh_overlap);
	if (preemptible() || !in_softirq())
		atomic_inc(&st->bh_not_atomic);
	atomic_long_inc(&t->runs);
	atomic_dec(&st->bh_inside);
}

/* queue task (where, i); count a 1.  Any context. */
static void tqt_stress_queue(struct tqt_stress *st, int where, unsigned int i,
			     atomic_long_t *ctx)
{
	struct tqt_stask *t = &st->task[where][i % TQT_POOL];
	int ret;

	switch (where) {
	case TQT_PRIVATE:
		ret = queue_task(&t->tq, &st->private_q);
		break;
	case TQT_TIMER:
		ret = queue_task(&t->tq, &tq_timer);
		break;
	case TQT_IMMEDIATE:
		ret = queue_task(&t->tq, &tq_immediate);
		mark_bh(IMMEDIATE_BH);
		break;
	default:
		ret = schedule_task(&t->tq);
		break;
	}
	if (ret) {
		atomic_long_inc(&t->newly);
		atomic_long_inc(&st->total);
		atomic_long_inc(ctx);
	}
}

static enum hrtimer_restart tqt_stress_hrt(struct hrtimer *h)
{
	struct tqt_stress *st = container_of(h, struct tqt_stress, hrt);
	int w;

	for (w = 0; w < TQT_NWHERE; w++)
		tqt_stress_queue(st, w, st->hr_seq++, &st->from_hardirq);
	if (atomic_read(&st->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(h, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void tqt_stress_timer(struct timer_list *tl)
{
	struct tqt_stress *st = container_of(tl, struct tqt_stress, timer);
	int w;

	for (w = 0; w < TQT_NWHERE; w++)
		tqt_stress_queue(st, w, st->timer_seq++, &st->from_softirq);
	if (!atomic_read(&st->stop))
		mod_timer(tl, jiffies + 1);
}

struct tqt_worker {
	struct tqt_stress *st;
	int n;
	struct completion done;
};

static int tqt_stress_producer(void *data)
{
	struct tqt_worker *w = data;
	struct tqt_stress *st = w->st;
	unsigned int i = w->n * 7;
	unsigned long flags;

	while (!atomic_read(&st->stop)) {
		/* every call also under a spinlock with interrupts off */
		local_irq_save(flags);
		tqt_stress_queue(st, TQT_PRIVATE, i, &st->from_thread);
		tqt_stress_queue(st, TQT_PRIVATE, i + 1, &st->from_thread);
		if (!(i % 16)) {
			tqt_stress_queue(st, TQT_TIMER, i, &st->from_thread);
			tqt_stress_queue(st, TQT_IMMEDIATE, i, &st->from_thread);
			tqt_stress_queue(st, TQT_KEVENTD, i, &st->from_thread);
		}
		local_irq_restore(flags);
		i += 3;
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

static int tqt_stress_runner(void *data)
{
	struct tqt_worker *w = data;
	struct tqt_stress *st = w->st;

	while (!atomic_read(&st->stop)) {
		run_task_queue(&st->private_q);
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

static void tqt_sentinel_fn(void *data)
{
	complete(data);
}

/*
 * Promise: queue_task/schedule_task/mark_bh from threads, a kernel timer
 * and hard IRQ at once: each returns 1 exactly once per run (counts per
 * task are exact), never sleeps (hard IRQ, irqs-off callers), and BH-run
 * routines never overlap and stay atomic.
 */
static void stress_queue_run_exact_counts(struct kunit *test)
{
	struct tqt_stress *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct tqt_worker *w;
	struct tq_struct sentinel[TQT_NWHERE];
	unsigned long deadline = jiffies + 120 * HZ;
	long newly = 0, runs = 0;
	int i, k, nw = TQT_THREADS + 2;

	KUNIT_ASSERT_NOT_NULL(test, st);
	w = kunit_kzalloc(test, nw * sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	INIT_LIST_HEAD(&st->private_q);
	for (k = 0; k < TQT_NWHERE; k++) {
		for (i = 0; i < TQT_POOL; i++) {
			struct tqt_stask *t = &st->task[k][i];

			INIT_TQUEUE(&t->tq, (k == TQT_TIMER || k == TQT_IMMEDIATE) ?
				    tqt_stress_bh_fn : tqt_stress_fn, t);
			t->st = st;
		}
		init_completion(&st->sentinel_done[k]);
	}
	hrtimer_init(&st->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	st->hrt.function = tqt_stress_hrt;
	timer_setup(&st->timer, tqt_stress_timer, 0);

	for (i = 0; i < nw; i++) {
		struct task_struct *tsk;

		w[i].st = st;
		w[i].n = i;
		init_completion(&w[i].done);
		tsk = kthread_run(i < TQT_THREADS ? tqt_stress_producer :
				  tqt_stress_runner, &w[i], "tqt_stress/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	}
	hrtimer_start(&st->hrt, ns_to_ktime(50 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	mod_timer(&st->timer, jiffies + 1);

	/* Produce until the target; the deadline only turns a hang into a failure. */
	while (atomic_long_read(&st->total) < TQT_TARGET &&
	       time_before(jiffies, deadline))
		msleep(20);

	atomic_set(&st->stop, 1);
	hrtimer_cancel(&st->hrt);
	del_timer_sync(&st->timer);
	for (i = 0; i < nw; i++)
		KUNIT_ASSERT_TRUE(test, tqt_wait(&w[i].done));

	/* Drain.  FIFO: a sentinel queued last runs after every task before it. */
	run_task_queue(&st->private_q);
	INIT_TQUEUE(&sentinel[TQT_TIMER], tqt_sentinel_fn, &st->sentinel_done[TQT_TIMER]);
	INIT_TQUEUE(&sentinel[TQT_IMMEDIATE], tqt_sentinel_fn,
		    &st->sentinel_done[TQT_IMMEDIATE]);
	queue_task(&sentinel[TQT_TIMER], &tq_timer);
	queue_task(&sentinel[TQT_IMMEDIATE], &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&st->sentinel_done[TQT_TIMER]));
	KUNIT_ASSERT_TRUE(test, tqt_wait(&st->sentinel_done[TQT_IMMEDIATE]));
	flush_scheduled_tasks();

	for (k = 0; k < TQT_NWHERE; k++) {
		for (i = 0; i < TQT_POOL; i++) {
			struct tqt_stask *t = &st->task[k][i];

			KUNIT_EXPECT_EQ(test, atomic_long_read(&t->newly),
					atomic_long_read(&t->runs));
			KUNIT_EXPECT_EQ(test, t->tq.sync, 0UL);
			newly += atomic_long_read(&t->newly);
			runs += atomic_long_read(&t->runs);
		}
	}
	kunit_info(test, "%ld queue/run cycles: %ld from threads, %ld from softirq, %ld from hard IRQ",
		   newly, atomic_long_read(&st->from_thread),
		   atomic_long_read(&st->from_softirq),
		   atomic_long_read(&st->from_hardirq));
	KUNIT_EXPECT_EQ(test, newly, runs);
	KUNIT_EXPECT_EQ(test, newly, atomic_long_read(&st->total));
	KUNIT_EXPECT_GE(test, newly, (long)TQT_TARGET);
	KUNIT_EXPECT_GT(test, atomic_long_read(&st->from_hardirq), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&st->from_softirq), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->bh_overlap), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->bh_not_atomic), 0);
	KUNIT_EXPECT_FALSE(test, TQ_ACTIVE(st->private_q));
}

static struct kunit_case tqueue_cases[] = {
	KUNIT_CASE(tq_struct_layout_and_initializers),
	KUNIT_CASE(queue_task_return_values),
	KUNIT_CASE(run_task_queue_fifo_synchronous),
	KUNIT_CASE(run_task_queue_requeue_goes_to_next_run),
	KUNIT_CASE(tq_timer_runs_next_tick_atomic),
	KUNIT_CASE(tq_timer_self_requeue_once_per_tick),
	KUNIT_CASE(tq_immediate_runs_on_mark_bh),
	KUNIT_CASE(bh_run_in_number_order),
	KUNIT_CASE(remove_bh_waits_and_stops),
	KUNIT_CASE(tq_timer_shares_lock_with_timer),
	KUNIT_CASE(tq_disk_explicit_run),
	KUNIT_CASE(tq_disk_runs_after_delay),
	KUNIT_CASE(schedule_task_process_context_fifo),
	KUNIT_CASE(schedule_task_return_values),
	KUNIT_CASE(current_is_keventd_from_hardirq),
	KUNIT_CASE(flush_scheduled_tasks_self_requeue),
	KUNIT_CASE(stress_queue_run_exact_counts),
	{}
};

static struct kunit_suite tqueue_suite = {
	.name = "wqcompat-tqueue",
	.test_cases = tqueue_cases,
};

/* ---- misuse: complained about, survived ------------------------------- */

/*
 * These provoke the shim's complaints on purpose.  With misuse_warn=Y (the
 * default) each is a WARN, which a clean test run must not have; the suite
 * turns it to N (an error line naming the caller) and checks the misuse
 * counter instead.  unload-loop.sh with WARN=1 shows the WARN form.
 */
static int tqt_misuse_suite_init(struct kunit_suite *suite)
{
	return tqt_write_file(TQT_MISUSE_PARAM, "N");
}

static void tqt_misuse_suite_exit(struct kunit_suite *suite)
{
	tqt_write_file(TQT_MISUSE_PARAM, "Y");
}

struct tqt_flusher {
	struct tq_struct tq;
	struct completion done;
	bool keventd;
};

static void tqt_flusher_fn(void *data)
{
	struct tqt_flusher *f = data;

	f->keventd = current_is_keventd();
	flush_scheduled_tasks();	/* would wait for itself */
	complete(&f->done);
}

/* Promise: flush_scheduled_tasks from a scheduled task complains, returns. */
static void flush_from_scheduled_task_returns(struct kunit *test)
{
	struct tqt_flusher f;
	long before = tqt_misuse_count();

	KUNIT_ASSERT_GE(test, before, 0L);
	init_completion(&f.done);
	INIT_TQUEUE(&f.tq, tqt_flusher_fn, &f);
	KUNIT_ASSERT_EQ(test, schedule_task(&f.tq), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&f.done));
	flush_scheduled_tasks();
	KUNIT_EXPECT_TRUE(test, f.keventd);
	KUNIT_EXPECT_EQ(test, tqt_misuse_count(), before + 1);
}

static atomic_t tqt_nop_bh_runs = ATOMIC_INIT(0);

static void tqt_nop_bh(void)
{
	atomic_inc(&tqt_nop_bh_runs);
}

/* Promise: the shim's own BH slots cannot be taken or removed by a driver. */
static void init_bh_refuses_shim_slots(struct kunit *test)
{
	long before = tqt_misuse_count();
	/* q static: a shim that lost tq_immediate would keep it queued */
	static struct tqt_probe q;
	struct tqt_probe p;

	KUNIT_ASSERT_GE(test, before, 0L);
	init_bh(IMMEDIATE_BH, tqt_nop_bh);
	remove_bh(TQUEUE_BH);
	KUNIT_EXPECT_EQ(test, tqt_misuse_count(), before + 2);
	/* tq_timer still runs */
	tqt_probe_init(&p, 0, NULL, NULL);
	KUNIT_ASSERT_EQ(test, queue_task(&p.tq, &tq_timer), 1);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&p.done));
	/* and IMMEDIATE_BH still runs tq_immediate, never the driver's BH */
	tqt_probe_init(&q, 0, NULL, NULL);
	KUNIT_ASSERT_EQ(test, queue_task(&q.tq, &tq_immediate), 1);
	mark_bh(IMMEDIATE_BH);
	KUNIT_ASSERT_TRUE(test, tqt_wait(&q.done));
	KUNIT_EXPECT_EQ(test, atomic_read(&tqt_nop_bh_runs), 0);
}

static struct kunit_case misuse_cases[] = {
	KUNIT_CASE(flush_from_scheduled_task_returns),
	KUNIT_CASE(init_bh_refuses_shim_slots),
	{}
};

static struct kunit_suite misuse_suite = {
	.name = "wqcompat-tqueue-misuse",
	.suite_init = tqt_misuse_suite_init,
	.suite_exit = tqt_misuse_suite_exit,
	.test_cases = misuse_cases,
};

kunit_test_suites(&tqueue_suite, &misuse_suite);

MODULE_DESCRIPTION("KUnit tests for wqcompat's 2.4 task queues and bottom halves");
MODULE_LICENSE("GPL");

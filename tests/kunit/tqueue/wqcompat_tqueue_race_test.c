// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the races of the 2.4 layer that need a window widened to
 * be seen: run against wqcompat.ko built with its test-only delay points
 * (scripts/kbuild --hooks; tests/kunit/tqueue/runs: @hooks).  On a shim
 * without them every case is skipped.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/tqueue.h>

#define TQR_DELAYS "/sys/module/wqcompat/parameters/test_delay"
#define TQR_NO_DELAYS "off"

/* Set the shim's delay points by name (compat/wqcompat_hooks.h). */
static int tqr_delays(const char *us)
{
	struct file *f = filp_open(TQR_DELAYS, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, us, strlen(us), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

struct tqr_flush {
	struct tq_struct task;
	atomic_t runs;
	struct completion first_returned;
	int first_ret;
};

static void tqr_task_fn(void *data)
{
	struct tqr_flush *f = data;

	atomic_inc(&f->runs);
}

/* The first schedule_task(): held between its queue_task() and its kick. */
static int tqr_first_fn(void *arg)
{
	struct tqr_flush *f = arg;

	f->first_ret = schedule_task(&f->task);
	complete(&f->first_returned);
	return 0;
}

/*
 * One try of the cases below, with the shim's delay points at DELAYS:
 * false when its window was missed.
 */
static bool tqr_flush_try(struct kunit *test, const char *delays)
{
	struct tqr_flush *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct task_struct *first;
	unsigned long until;

	KUNIT_ASSERT_NOT_NULL(test, f);
	/* this suite runs with the shim's test build (runs: @hooks) */
	KUNIT_ASSERT_EQ(test, tqr_delays(delays), 0);
	INIT_TQUEUE(&f->task, tqr_task_fn, f);
	init_completion(&f->first_returned);
	first = kthread_run(tqr_first_fn, f, "tqr_first");
	if (IS_ERR(first)) {
		tqr_delays(TQR_NO_DELAYS);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(first));
		return true;
	}
	/* Wait until T is queued: its sync bit says so (a state, not time). */
	until = jiffies + 10 * HZ;
	while (!test_bit(0, &f->task.sync) && time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
	if (!test_bit(0, &f->task.sync)) {
		/* not with A still at work on f, nor with the delays left on */
		tqr_delays(TQR_NO_DELAYS);
		wait_for_completion(&f->first_returned);
		flush_scheduled_tasks();
		KUNIT_FAIL(test, "T not queued 10 s after A began");
		return true;
	}

	if (schedule_task(&f->task)) {
		/*
		 * T had run: this thread was held past A's 500 ms window
		 * (a loaded host), so B did not find T queued.  Not the case
		 * under test: let both queueings run out, and try again.
		 */
		wait_for_completion(&f->first_returned);
		tqr_delays(TQR_NO_DELAYS);
		flush_scheduled_tasks();
		return false;
	}
	flush_scheduled_tasks();
	KUNIT_EXPECT_EQ(test, atomic_read(&f->runs), 1);

	wait_for_completion(&f->first_returned);
	KUNIT_EXPECT_EQ(test, f->first_ret, 1);
	tqr_delays(TQR_NO_DELAYS);
	flush_scheduled_tasks();
	KUNIT_EXPECT_EQ(test, atomic_read(&f->runs), 1);
	return true;
}

/*
 * Promise: flush_scheduled_tasks() waits for every task known to be queued
 * when it is called.  CPU A's schedule_task(T) has put T on keventd's
 * queue and is held (delay point) before it kicks keventd; CPU B's
 * schedule_task(T) returns 0 (T is queued), and B flushes: T must have run
 * when the flush returns.  2.4 queued a marker behind T and waited for it.
 */
static void flush_scheduled_tasks_waits_for_queued_task(struct kunit *test)
{
	int tries = 0;

	while (tries < 3 && !tqr_flush_try(test, "schedule_task=500000"))
		tries++;
	/* else B never came while T was queued, in 3 tries */
	KUNIT_EXPECT_LT(test, tries, 3);
}

/*
 * Promise: a task that queue_task() owns (its sync bit set: another
 * queue_task() of it returns 0) is on its queue.  As above, with A's
 * schedule_task(T) also held where its queue_task() takes T: B's
 * schedule_task(T) returns 0 only once T is on keventd's queue, where B's
 * flush finds it.  2.4 set the bit, then took the lock to list the task:
 * a window that a preemptible kernel makes as long as a preemption, and
 * B's flush returned before T ran (seen on the debug kernel).
 */
static void queue_task_lists_what_it_owns(struct kunit *test)
{
	int tries = 0;

	while (tries < 3 &&
	       !tqr_flush_try(test, "schedule_task=500000,queue_owned=500000"))
		tries++;
	KUNIT_EXPECT_LT(test, tries, 3);
}

static struct kunit_case tqr_cases[] = {
	KUNIT_CASE(flush_scheduled_tasks_waits_for_queued_task),
	KUNIT_CASE(queue_task_lists_what_it_owns),
	{}
};

static struct kunit_suite tqr_suite = {
	.name = "wqcompat_tqueue_race",
	.test_cases = tqr_cases,
};

kunit_test_suites(&tqr_suite);

MODULE_DESCRIPTION("KUnit suite for wqcompat's 2.4 layer: races, with widened windows");
MODULE_LICENSE("GPL");

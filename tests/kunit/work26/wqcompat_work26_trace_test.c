// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the 2.6 layer's tracepoints (compat/work26_trace.h),
 * which `wqport trace` reads to name the legacy item and handler behind
 * the kernel's own workqueue and timer events (docs/tracing.md).  Probes
 * are registered on the two events; each case does what a 2005 driver
 * does and checks what the events said:
 *
 *  - run: a queued item's handler call is bracketed by a start and an end
 *    naming the item and the handler, by a worker;
 *  - bind: the first queueing names the shadow whose work the kernel
 *    queues, and its timer;
 *  - dwork: a struct delayed_work whose work a 3-argument INIT_WORK made
 *    legacy is queued and armed by the kernel as it is: the bind names
 *    the driver's own work and timer (the one the timer events give).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "work26_trace.h"

#define W26T_MAX	16
#define W26T_WAIT	(20 * HZ)

struct w26t_bind {
	const void *item, *shadow, *timer, *handler;
};

struct w26t_run {
	const void *item, *handler;
	int how, end;
};

/* Raw: the bind event fires under the layer's raw spinlock. */
static DEFINE_RAW_SPINLOCK(w26t_lock);
static struct w26t_bind w26t_binds[W26T_MAX];
static struct w26t_run w26t_runs[W26T_MAX];
static int w26t_nbinds, w26t_nruns;
static const void *w26t_watch;	/* the item a case records; NULL: none */

static void w26t_on_bind(void *unused, const void *item, const void *shadow,
			 const void *timer, const void *handler)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&w26t_lock, flags);
	if (item == w26t_watch && w26t_nbinds < W26T_MAX)
		w26t_binds[w26t_nbinds++] = (struct w26t_bind){ item, shadow, timer, handler };
	raw_spin_unlock_irqrestore(&w26t_lock, flags);
}

static void w26t_on_run(void *unused, const void *item, const void *handler,
			int how, int end)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&w26t_lock, flags);
	if (item == w26t_watch && w26t_nruns < W26T_MAX)
		w26t_runs[w26t_nruns++] = (struct w26t_run){ item, handler, how, end };
	raw_spin_unlock_irqrestore(&w26t_lock, flags);
}

static void w26t_watch_item(const void *item)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&w26t_lock, flags);
	w26t_watch = item;
	w26t_nbinds = 0;
	w26t_nruns = 0;
	raw_spin_unlock_irqrestore(&w26t_lock, flags);
}

static int w26t_init(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, register_trace_wqcompat_work26_bind(w26t_on_bind, NULL), 0);
	KUNIT_ASSERT_EQ(test, register_trace_wqcompat_work26_run(w26t_on_run, NULL), 0);
	return 0;
}

static void w26t_exit(struct kunit *test)
{
	w26t_watch_item(NULL);
	unregister_trace_wqcompat_work26_run(w26t_on_run, NULL);
	unregister_trace_wqcompat_work26_bind(w26t_on_bind, NULL);
	tracepoint_synchronize_unregister();
}

static struct completion w26t_done;

static void w26t_handler(void *data)
{
	complete(data);
}

static void w26t_run_named(struct kunit *test)
{
	static struct work_struct work;

	init_completion(&w26t_done);
	INIT_WORK(&work, w26t_handler, &w26t_done);
	w26t_watch_item(&work);
	KUNIT_ASSERT_TRUE(test, schedule_work(&work));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&w26t_done, W26T_WAIT), 0UL);
	flush_scheduled_work();
	KUNIT_ASSERT_EQ(test, w26t_nruns, 2);
	KUNIT_EXPECT_PTR_EQ(test, w26t_runs[0].handler, (const void *)w26t_handler);
	KUNIT_EXPECT_EQ(test, w26t_runs[0].how, W26_RUN_WORKER);
	KUNIT_EXPECT_EQ(test, w26t_runs[0].end, 0);
	KUNIT_EXPECT_PTR_EQ(test, w26t_runs[1].handler, (const void *)w26t_handler);
	KUNIT_EXPECT_EQ(test, w26t_runs[1].end, 1);
}

static void w26t_bind_names_the_shadow(struct kunit *test)
{
	struct work_struct *work = kunit_kzalloc(test, sizeof(*work), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, work);
	init_completion(&w26t_done);
	INIT_WORK(work, w26t_handler, &w26t_done);
	w26t_watch_item(work);
	KUNIT_ASSERT_TRUE(test, schedule_work(work));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&w26t_done, W26T_WAIT), 0UL);
	flush_scheduled_work();
	KUNIT_ASSERT_GE(test, w26t_nbinds, 1);
	KUNIT_EXPECT_PTR_EQ(test, w26t_binds[0].handler, (const void *)w26t_handler);
	/* the kernel queues the shadow, never the driver's item */
	KUNIT_EXPECT_PTR_NE(test, w26t_binds[0].shadow, (const void *)work);
	KUNIT_EXPECT_NOT_NULL(test, w26t_binds[0].timer);
	cancel_work_sync(work);
}

static void w26t_dwork_is_its_own(struct kunit *test)
{
	struct delayed_work *dw = kunit_kzalloc(test, sizeof(*dw), GFP_KERNEL);
	int i, found = 0;

	KUNIT_ASSERT_NOT_NULL(test, dw);
	init_completion(&w26t_done);
	/* half converted: a delayed_work whose work the 2.6.19 INIT_WORK set */
	INIT_DELAYED_WORK(dw, NULL);
	INIT_WORK(&dw->work, w26t_handler, &w26t_done);
	w26t_watch_item(&dw->work);
	KUNIT_ASSERT_TRUE(test, queue_delayed_work(system_wq, dw, 1));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&w26t_done, W26T_WAIT), 0UL);
	cancel_delayed_work_sync(dw);
	for (i = 0; i < w26t_nbinds; i++)
		if (w26t_binds[i].timer == (const void *)&dw->timer &&
		    w26t_binds[i].shadow == (const void *)&dw->work)
			found++;
	/* none before: the bind named the record's shadow, which never runs */
	KUNIT_EXPECT_GT(test, found, 0);
}

static struct kunit_case w26t_cases[] = {
	KUNIT_CASE(w26t_run_named),
	KUNIT_CASE(w26t_bind_names_the_shadow),
	KUNIT_CASE(w26t_dwork_is_its_own),
	{}
};

static struct kunit_suite w26t_suite = {
	.name = "wqcompat_work26_trace",
	.init = w26t_init,
	.exit = w26t_exit,
	.test_cases = w26t_cases,
};
kunit_test_suite(w26t_suite);

MODULE_DESCRIPTION("KUnit: the 2.6 layer's tracepoints name items and handlers");
MODULE_LICENSE("GPL");

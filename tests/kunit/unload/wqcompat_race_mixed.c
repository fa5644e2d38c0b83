// SPDX-License-Identifier: GPL-2.0
/*
 * For race-mixed.sh: a module whose 2.6 handler is still running when the
 * module unloads, and queues a 2.4 task of the module on tq_timer, and
 * installs and marks a bottom half of the module, before it returns.  The
 * unload waits for the handler in the 2.6 layer; if the 2.4 layer had
 * already let go of the module by then, the task would stay on tq_timer
 * and the tick would call this module's code after it is gone.  Both
 * layers must let go together (compat/main.c), and the BH must not be
 * installed (it would run the module's code during its unload, and one
 * that installs itself again would keep the unload's rounds going).
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/tqueue.h>
#include <linux/workqueue.h>

#include "wqcompat_hooks.h"

static DECLARE_COMPLETION(mixed_started);
static struct work_struct mixed_work;
/* the shim's test build: how often the 2.6 layer began an unload round */
static int (*mixed_hits)(unsigned int point);
static int mixed_rounds_before;

static void mixed_task_fn(void *data)
{
	pr_info("wqcompat_race_mixed: task ran\n");
}

static struct tq_struct mixed_task = { routine: mixed_task_fn, data: NULL };

static void mixed_bh(void)
{
	pr_info("wqcompat_race_mixed: bh ran\n");
	init_bh(SERIAL_BH, mixed_bh);
}

static void mixed_fn(void *data)
{
	unsigned long until = jiffies + 60 * HZ;

	complete(&mixed_started);
	/*
	 * Queue only once the unload has begun (delete_module() marks the
	 * module going before its exit and the notifiers run): before that,
	 * the task would rightly run.  The deadline only turns a test that
	 * never unloads into a failure (the task then runs).
	 */
	while (module_is_live(THIS_MODULE) && time_before(jiffies, until))
		msleep(1);
	/*
	 * The case: the queueing lands inside the 2.6 layer's wait for this
	 * handler, after the 2.4 layer's first round (compat/main.c runs it
	 * first), not before it, which would take it off as well.  The 2.6
	 * round has begun once it marked this module's records.
	 */
	while (mixed_hits(WQCOMPAT_HOOK_GOING_MARKED) == mixed_rounds_before &&
	       time_before(jiffies, until))
		msleep(1);
	if (mixed_hits(WQCOMPAT_HOOK_GOING_MARKED) != mixed_rounds_before)
		pr_info("wqcompat_race_mixed: queueing inside the 2.6 layer's round\n");
	queue_task(&mixed_task, &tq_timer);
	init_bh(SERIAL_BH, mixed_bh);
	mark_bh(SERIAL_BH);
}

static int __init mixed_init(void)
{
	mixed_hits = symbol_get(wqcompat_test_hits);
	if (!mixed_hits)
		return -ENOENT;		/* the shim's test build is needed */
	mixed_rounds_before = mixed_hits(WQCOMPAT_HOOK_GOING_MARKED);
	INIT_WORK(&mixed_work, mixed_fn, NULL);
	schedule_work(&mixed_work);
	wait_for_completion(&mixed_started);
	return 0;
}

static void __exit mixed_exit(void)
{
	/* forgets the running handler: the driver bug the shim must survive */
	symbol_put(wqcompat_test_hits);	/* this module uses wqcompat anyway */
}

module_init(mixed_init);
module_exit(mixed_exit);

MODULE_DESCRIPTION("wqport test: a 2.6 handler queues 2.4 work while its module unloads");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * For foreign-queuer.sh: queues wqcompat_tq_owner's task onto tq_timer
 * from a timer, every jiffy, and goes on while the owner unloads: a 2.4
 * module that shares a task with another, or a timer the owner forgot.
 *
 * The owner counts as going from the shim's start of its unload (the test
 * build's delay point going_begin, counted) on: a queueing before that is
 * listed and taken off by the unload's first round.  The timer stops
 * after three queueings during the unload (inside the 100 ms the delay
 * point holds it), and a module notifier after the shim's (when its rounds
 * have ended, before the owner's memory is freed) makes sure it stopped.
 * Parameters: "runs" (calls of the owner's routine), "queued" (queue_task
 * calls that returned 1), "going_queued" (of those, the ones made while
 * the owner was going), "going_listed" (of those, the ones after which the
 * task was owned, that is listed: a going module's task must not be),
 * "stopped" (the last notifier ran).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/timer.h>
#include <linux/tqueue.h>

#include "wqcompat_tq_queuer.h"


/* The shim's delay points and hit counts (its test build: compat/hooks.c). */
#include "wqcompat_hooks.h"

static struct tq_struct *queuer_task;
static struct module *queuer_owner;
static struct timer_list queuer_timer;
static bool queuer_stop;
static int (*queuer_hits)(unsigned int point);
static int queuer_base = INT_MAX;	/* going_begin's count before */

static int runs, queued, going_queued, going_listed;
static bool stopped;
module_param(runs, int, 0444);
module_param(queued, int, 0444);
module_param(going_queued, int, 0444);
module_param(going_listed, int, 0444);
module_param(stopped, bool, 0444);

static void queuer_timer_fn(struct timer_list *t)
{
	bool going;

	if (READ_ONCE(queuer_stop))
		return;
	/* read first: the unload began before this queueing, not after */
	going = queuer_hits(WQCOMPAT_HOOK_GOING_BEGIN) > READ_ONCE(queuer_base);
	if (queue_task(queuer_task, &tq_timer)) {
		queued++;
		if (going) {
			going_queued++;
			going_listed += test_bit(0, &queuer_task->sync);
		}
	}
	/*
	 * Three queueings inside the unload's first 100 ms (its delay
	 * point) are enough; later ones could come after the shim's rounds
	 * ended, and would list the task with its module's memory about
	 * to be freed (a driver that keeps queueing a module's task past
	 * its unload is broken on 2.4 too).
	 */
	if (going_queued >= 3)
		return;
	mod_timer(&queuer_timer, jiffies + 1);
}

/**
 * tq_queuer_start - queue @task onto tq_timer every jiffy from now on
 * @task: a task of @owner
 * @owner: the module the task and its routine belong to
 *
 * Context: process (module init).
 */
void tq_queuer_start(struct tq_struct *task, struct module *owner)
{
	queuer_task = task;
	queuer_owner = owner;
	mod_timer(&queuer_timer, jiffies + 1);
}
EXPORT_SYMBOL_GPL(tq_queuer_start);

/**
 * tq_queuer_ran - the owner's routine was called
 *
 * Context: the routine's (TQUEUE_BH).
 */
void tq_queuer_ran(void)
{
	WRITE_ONCE(runs, runs + 1);
}
EXPORT_SYMBOL_GPL(tq_queuer_ran);

static int queuer_first(struct notifier_block *nb, unsigned long state,
			void *data)
{
	if (data == queuer_owner && state == MODULE_STATE_GOING)
		WRITE_ONCE(queuer_base, queuer_hits(WQCOMPAT_HOOK_GOING_BEGIN));
	return NOTIFY_OK;
}

static int queuer_last(struct notifier_block *nb, unsigned long state,
		       void *data)
{
	if (data != queuer_owner || state != MODULE_STATE_GOING)
		return NOTIFY_OK;
	WRITE_ONCE(queuer_stop, true);
	del_timer_sync(&queuer_timer);
	queuer_owner = NULL;
	stopped = true;
	return NOTIFY_OK;
}

static struct notifier_block queuer_first_nb = {
	.notifier_call = queuer_first,
	.priority = 1,
};

static struct notifier_block queuer_last_nb = {
	.notifier_call = queuer_last,
	.priority = -1,
};

static int __init queuer_init(void)
{
	int ret;

	queuer_hits = symbol_get(wqcompat_test_hits);
	if (!queuer_hits)
		return -ENOENT;		/* the shim's test build is needed */
	timer_setup(&queuer_timer, queuer_timer_fn, 0);
	ret = register_module_notifier(&queuer_first_nb);
	if (!ret) {
		ret = register_module_notifier(&queuer_last_nb);
		if (ret)
			unregister_module_notifier(&queuer_first_nb);
	}
	if (ret)
		symbol_put(wqcompat_test_hits);
	return ret;
}

static void __exit queuer_exit(void)
{
	WRITE_ONCE(queuer_stop, true);
	del_timer_sync(&queuer_timer);
	unregister_module_notifier(&queuer_last_nb);
	unregister_module_notifier(&queuer_first_nb);
	symbol_put(wqcompat_test_hits);
}

module_init(queuer_init);
module_exit(queuer_exit);

MODULE_DESCRIPTION("wqport test: queues another module's 2.4 task every jiffy");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * Helper for stale.sh: blocks a workqueue with a modern item of its own
 * until told to let go (parameter "release"), so that another module's
 * work can be left queued behind it when that module unloads.  It outlives
 * the module under test, so its item is never code of a module that is
 * gone.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

static DECLARE_COMPLETION(w26b_started);
static DECLARE_COMPLETION(w26b_released);
static struct work_struct w26b_work;
static bool w26b_used;

static void w26b_fn(struct work_struct *work)
{
	complete(&w26b_started);
	wait_for_completion(&w26b_released);
}

/**
 * w26b_block - occupy @wq (single-threaded) until "release" is written
 * @wq: the queue to block
 *
 * Returns once the blocking item runs.  Context: process; sleeps.
 */
void w26b_block(struct workqueue_struct *wq)
{
	INIT_WORK(&w26b_work, w26b_fn);
	w26b_used = true;
	queue_work(wq, &w26b_work);
	wait_for_completion(&w26b_started);
}
EXPORT_SYMBOL_GPL(w26b_block);

static int w26b_release_set(const char *val, const struct kernel_param *kp)
{
	complete_all(&w26b_released);
	return 0;
}

static const struct kernel_param_ops w26b_release_ops = {
	.set = w26b_release_set,
};
module_param_cb(release, &w26b_release_ops, NULL, 0200);

static int __init w26b_init(void)
{
	return 0;
}

static void __exit w26b_exit(void)
{
	complete_all(&w26b_released);
	if (w26b_used)
		flush_work(&w26b_work);
}

module_init(w26b_init);
module_exit(w26b_exit);

MODULE_DESCRIPTION("wqport test helper: blocks a workqueue until released");
MODULE_LICENSE("GPL");

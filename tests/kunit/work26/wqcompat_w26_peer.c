// SPDX-License-Identifier: GPL-2.0
/*
 * Helper for owner.sh: uses memory it is given as its own work items, one
 * legacy (3-argument INIT_WORK) and one modern item given the 2.6 delayed
 * call, runs each once, and forgets them.  Its records stay bound to those
 * addresses; the caller then makes the same memory its own items, and
 * this module's unload must leave them alone.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

static DECLARE_COMPLETION(peer_legacy_ran);
static DECLARE_COMPLETION(peer_modern_ran);

static void peer_legacy_fn(void *data)
{
	complete(&peer_legacy_ran);
}

static void peer_modern_fn(struct work_struct *work)
{
	complete(&peer_modern_ran);
}

/**
 * peer_use - run @legacy and @plain once each as this module's items
 * @legacy: memory for a legacy item
 * @plain: memory for a modern item queued with the 2.6 delayed call
 * @wq: where to queue them
 *
 * Returns with both idle.  Context: process; sleeps.
 */
void peer_use(struct work_struct *legacy, struct work_struct *plain,
	      struct workqueue_struct *wq)
{
	INIT_WORK(legacy, peer_legacy_fn, NULL);
	queue_work(wq, legacy);
	wait_for_completion(&peer_legacy_ran);
	INIT_WORK(plain, peer_modern_fn);
	queue_delayed_work(wq, plain, 1);
	wait_for_completion(&peer_modern_ran);
	flush_workqueue(wq);
}
EXPORT_SYMBOL_GPL(peer_use);

static int __init peer_init(void)
{
	return 0;
}

static void __exit peer_exit(void)
{
}

module_init(peer_init);
module_exit(peer_exit);

MODULE_DESCRIPTION("wqport test helper: leaves its records at addresses it did not own");
MODULE_LICENSE("GPL");

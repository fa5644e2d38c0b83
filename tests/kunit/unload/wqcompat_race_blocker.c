// SPDX-License-Identifier: GPL-2.0
/*
 * Helper for race-pop.sh: holds keventd busy with a task of its own until
 * a timer lets it go, so that another module's task waits on keventd's
 * queue and is taken by a run only after that module began to unload.
 * It outlives the module under test.
 */
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>
#include <linux/tqueue.h>

#include "wqcompat_race_blocker.h"

static DECLARE_COMPLETION(blk_entered);
static DECLARE_COMPLETION(blk_open);
static struct timer_list blk_timer;

static void blk_fn(void *data)
{
	complete(&blk_entered);
	wait_for_completion(&blk_open);
}

static struct tq_struct blk_task = { routine: blk_fn, data: NULL };

/**
 * race_block_keventd - occupy keventd until race_release_after() fires
 *
 * Returns once the blocking task runs.  Context: process; sleeps.
 */
void race_block_keventd(void)
{
	schedule_task(&blk_task);
	wait_for_completion(&blk_entered);
}
EXPORT_SYMBOL_GPL(race_block_keventd);

static void blk_timer_fn(struct timer_list *t)
{
	complete_all(&blk_open);
}

/**
 * race_release_after - let keventd go @ms milliseconds from now
 * @ms: delay
 *
 * Context: any.
 */
void race_release_after(unsigned int ms)
{
	mod_timer(&blk_timer, jiffies + msecs_to_jiffies(ms));
}
EXPORT_SYMBOL_GPL(race_release_after);

static int __init blk_init(void)
{
	timer_setup(&blk_timer, blk_timer_fn, 0);
	return 0;
}

static void __exit blk_exit(void)
{
	complete_all(&blk_open);
	timer_delete_sync(&blk_timer);
	/* waits for keventd's run, also one held at a delay point */
	flush_scheduled_tasks();
}

module_init(blk_init);
module_exit(blk_exit);

MODULE_DESCRIPTION("wqport test helper: holds keventd busy until a timer fires");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * For race-pop.sh: a task of this module waits on keventd's queue behind
 * a task of wqcompat_race_blocker; the module's exit asks the blocker to
 * let go 100 ms later, while the module is already unloading.  keventd's
 * next run then takes this module's task off its queue as the module's
 * (not calling it) and, held at a delay point of the test build, finishes
 * with the task only after the unload could have freed it: the run must
 * be done with the task before it lets go of the lock that took it.
 */
#include <linux/module.h>
#include <linux/tqueue.h>

#include "wqcompat_race_blocker.h"

static void pop_fn(void *data)
{
	pr_info("wqcompat_race_pop: task ran\n");
}

static struct tq_struct pop_task = { routine: pop_fn, data: NULL };

static int __init pop_init(void)
{
	race_block_keventd();
	if (!schedule_task(&pop_task))
		return -EBUSY;
	return 0;
}

static void __exit pop_exit(void)
{
	race_release_after(100);
}

module_init(pop_init);
module_exit(pop_exit);

MODULE_DESCRIPTION("wqport test: a task taken off keventd's queue while its module unloads");
MODULE_LICENSE("GPL");

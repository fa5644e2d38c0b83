// SPDX-License-Identifier: GPL-2.0
/*
 * The test build's delay points (compat/wqcompat_hooks.h).
 * Linked into wqcompat.ko only when it is built with WQCOMPAT_TEST_HOOKS=1.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>

#include "wqcompat_hooks.h"

#define HOOK_NAMES "tq_popped, schedule_task, going_begin, reclaim_gone, plain_taken, going_marked, queue_owned, hand_wait, flush_noted, plain_cancelled, destroy_timers, run_begin, run_ended"

static unsigned int test_delay_us[WQCOMPAT_HOOK_NR];
static unsigned int test_delay_nr;
module_param_array(test_delay_us, uint, &test_delay_nr, 0644);
MODULE_PARM_DESC(test_delay_us,
		 "test build only: microseconds to wait at each delay point (" HOOK_NAMES ")");

static atomic_t test_delay_hits[WQCOMPAT_HOOK_NR];

/**
 * wqcompat_test_hits - times a delay point was reached
 * @point: enum wqcompat_hook
 *
 * For tests, which find it with symbol_get() (it exists in the test build
 * only) and wait for this count, a state, before they act in the window;
 * a module parameter would not do, since a parameter's write (such as
 * work26_reclaim) holds the lock that every read of one takes.
 * Context: any.
 * Return: the count, or -1 for no such point.
 */
int wqcompat_test_hits(unsigned int point)
{
	if (point >= WQCOMPAT_HOOK_NR)
		return -1;
	return atomic_read(&test_delay_hits[point]);
}
EXPORT_SYMBOL_GPL(wqcompat_test_hits);

void wqcompat_test_delay(enum wqcompat_hook point)
{
	unsigned int us = READ_ONCE(test_delay_us[point]);

	atomic_inc(&test_delay_hits[point]);
	if (!us)
		return;
	if (preemptible())
		fsleep(us);
	else
		udelay(us);
}

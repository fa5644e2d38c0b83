// SPDX-License-Identifier: GPL-2.0
/*
 * The test build's delay points (compat/wqcompat_hooks.h).
 * Linked into wqcompat.ko only when it is built with WQCOMPAT_TEST_HOOKS=1.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>

#include "wqcompat_hooks.h"

static unsigned int test_delay_us[WQCOMPAT_HOOK_NR];
static unsigned int test_delay_nr;
module_param_array(test_delay_us, uint, &test_delay_nr, 0644);
MODULE_PARM_DESC(test_delay_us,
		 "test build only: microseconds to wait at each delay point (tq_popped, schedule_task, going_begin)");

void wqcompat_test_delay(enum wqcompat_hook point)
{
	unsigned int us = READ_ONCE(test_delay_us[point]);

	if (!us)
		return;
	if (preemptible())
		fsleep(us);
	else
		udelay(us);
}

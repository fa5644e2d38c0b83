// SPDX-License-Identifier: GPL-2.0
/* A module whose init never returns: `wqport test` must report a timeout. */
#include <linux/delay.h>
#include <linux/module.h>

static int harness_hang_forever = 1;
module_param(harness_hang_forever, int, 0444);

static int __init harness_hang_init(void)
{
	while (READ_ONCE(harness_hang_forever))
		msleep_interruptible(1000);
	return 0;
}
module_init(harness_hang_init);

MODULE_DESCRIPTION("wqport harness: a module that hangs");
MODULE_LICENSE("GPL");

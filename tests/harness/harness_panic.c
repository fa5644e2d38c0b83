// SPDX-License-Identifier: GPL-2.0
/* A module that panics while loading: `wqport test` must report a kernel crash. */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/panic.h>

static int __init harness_panic_init(void)
{
	panic("wqport harness: deliberate panic");
	return 0;
}
module_init(harness_panic_init);

MODULE_DESCRIPTION("wqport harness: a module that panics");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/* A module that WARNs while loading: `wqport test` must report kernel-log findings. */
#include <linux/bug.h>
#include <linux/module.h>

static int harness_warn_on = 1;
module_param(harness_warn_on, int, 0444);

static int __init harness_warn_init(void)
{
	WARN(harness_warn_on, "wqport harness: deliberate warning\n");
	return 0;
}
module_init(harness_warn_init);

static void __exit harness_warn_exit(void)
{
}
module_exit(harness_warn_exit);

MODULE_DESCRIPTION("wqport harness: a module that warns");
MODULE_LICENSE("GPL");

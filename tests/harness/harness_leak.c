// SPDX-License-Identifier: GPL-2.0
/*
 * A module that leaks an allocation: on the debug kernel kmemleak finds it and
 * `wqport test` must report kernel-log findings.
 */
#include <linux/module.h>
#include <linux/slab.h>

static void *harness_leak_ptr;

static int __init harness_leak_init(void)
{
	harness_leak_ptr = kmalloc(128, GFP_KERNEL);
	return harness_leak_ptr ? 0 : -ENOMEM;
}
module_init(harness_leak_init);

/* Forgets the pointer without freeing it: the leak. */
static void __exit harness_leak_exit(void)
{
	WRITE_ONCE(harness_leak_ptr, NULL);
}
module_exit(harness_leak_exit);

MODULE_DESCRIPTION("wqport harness: a module that leaks memory");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * wqcompat.ko: module glue.  Brings up the task-queue layer and the 2.6
 * workqueue layer, and tells both when another module goes away so that
 * nothing of that module is left queued.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/notifier.h>

#include "wqcompat.h"
#include "tq_internal.h"
#include "work26_rec.h"
#include "wqcompat_hooks.h"

struct dentry *wqcompat_debugfs;

/*
 * Both layers let go of @mod together: each refuses new work of @mod from
 * the start, and the rounds repeat until one finds nothing in either, so
 * that a 2.6 handler that queues a 2.4 task while the 2.6 layer waits for
 * it (or a 2.4 routine that queues 2.6 work) leaves nothing behind.
 * tq_module.c and work26_going.c describe a round of each.
 */
static void wqcompat_module_going(struct module *mod)
{
	struct wqcompat_tq_going tq;
	struct w26_going w26;
	int rounds = 0;
	bool busy;

	wqcompat_tq_going_begin(&tq, mod);
	wqcompat_work26_going_begin(&w26, mod);
	wqcompat_test_delay(WQCOMPAT_HOOK_GOING_BEGIN);
	do {
		busy = wqcompat_tq_going_round(&tq, rounds == 0);
		busy |= wqcompat_work26_going_round(mod) != 0;
		rounds++;
	} while (busy);
	wqcompat_work26_going_end(&w26);
	wqcompat_tq_going_end(&tq, rounds);
}

/*
 * MODULE_STATE_GOING is delivered after the module's exit function ran and
 * before its memory is freed: the last moment its tasks and work items can be
 * taken off our queues.
 */
static int wqcompat_module_notify(struct notifier_block *nb,
				  unsigned long state, void *data)
{
	struct module *mod = data;

	if (state == MODULE_STATE_GOING)
		wqcompat_module_going(mod);
	return NOTIFY_OK;
}

static struct notifier_block wqcompat_module_nb = {
	.notifier_call = wqcompat_module_notify,
};

static int __init wqcompat_init(void)
{
	int ret;

	wqcompat_debugfs = debugfs_create_dir("wqcompat", NULL);
	ret = wqcompat_tqueue_init();
	if (ret)
		goto out_debugfs;
	ret = wqcompat_work26_init();
	if (ret)
		goto out_tqueue;
	ret = register_module_notifier(&wqcompat_module_nb);
	if (ret)
		goto out_work26;
	return 0;

out_work26:
	wqcompat_work26_exit();
out_tqueue:
	wqcompat_tqueue_exit();
out_debugfs:
	debugfs_remove_recursive(wqcompat_debugfs);
	return ret;
}

static void __exit wqcompat_exit(void)
{
	unregister_module_notifier(&wqcompat_module_nb);
	wqcompat_work26_exit();
	wqcompat_tqueue_exit();
	debugfs_remove_recursive(wqcompat_debugfs);
}

module_init(wqcompat_init);
module_exit(wqcompat_exit);

MODULE_DESCRIPTION("Legacy task-queue and 2.6 workqueue API on modern workqueues");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

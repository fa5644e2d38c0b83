// SPDX-License-Identifier: GPL-2.0
/*
 * For plain-cancel.sh: holds a modern item (2-argument INIT_WORK) that
 * wqcompat_w26_armer arms with the 2.6 queue_delayed_work(), so the timer's
 * record is the armer's.  Writing "cancel" calls the 2.6
 * cancel_delayed_work() on it, which the shim's test build holds at its
 * delay point after the cancel has won (the write returns at once, the
 * cancel runs in a work item); the armer is unloaded meanwhile,
 * and its unload unbinds and recycles the record.  The cancel must then
 * give the item back its PENDING bit (never through the record), and the
 * item must queue and run.  Parameters: "hits" (times the delay point was
 * reached), "result" (the verdict after "cancel").
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

/* The shim's delay points and hit counts (its test build: compat/hooks.c). */
#include "wqcompat_hooks.h"

static DECLARE_COMPLETION(holder_ran);
static struct work_struct holder_item;
static char holder_result[96] = "not cancelled";
module_param_string(result, holder_result, sizeof(holder_result), 0444);

static void holder_fn(struct work_struct *work)
{
	complete(&holder_ran);
}

/**
 * holder_work - the modern item, for the armer to arm
 *
 * Context: any.  Return: the item.
 */
struct work_struct *holder_work(void)
{
	return &holder_item;
}
EXPORT_SYMBOL_GPL(holder_work);

static int holder_hits_get(char *buf, const struct kernel_param *kp)
{
	typeof(&wqcompat_test_hits) hits = symbol_get(wqcompat_test_hits);
	int n = hits ? hits(WQCOMPAT_HOOK_PLAIN_CANCELLED) : -1;

	if (hits)
		symbol_put(wqcompat_test_hits);
	return sysfs_emit(buf, "%d\n", n);
}

/*
 * The cancel runs in a work item of its own, not in the parameter's write:
 * a write holds the module's parameter lock, which every read of one of
 * its parameters (hits, result) would wait for.
 */
static void holder_cancel_fn(struct work_struct *work)
{
	int cancelled = cancel_delayed_work(&holder_item);
	bool pending = work_pending(&holder_item);
	bool queued = (queue_work)(system_wq, &holder_item);
	bool ran = wait_for_completion_timeout(&holder_ran, 20 * HZ);

	snprintf(holder_result, sizeof(holder_result),
		 "%s cancelled %d pending %d queued %d ran %d",
		 cancelled && !pending && queued && ran ? "ok" : "not ok",
		 cancelled, pending, queued, ran);
}

static DECLARE_WORK(holder_cancel_work, holder_cancel_fn);

static int holder_cancel_set(const char *val, const struct kernel_param *kp)
{
	(queue_work)(system_unbound_wq, &holder_cancel_work);
	return 0;
}

static const struct kernel_param_ops holder_hits_ops = {
	.get = holder_hits_get,
};
module_param_cb(hits, &holder_hits_ops, NULL, 0444);

static const struct kernel_param_ops holder_cancel_ops = {
	.set = holder_cancel_set,
};
module_param_cb(cancel, &holder_cancel_ops, NULL, 0200);

static int __init holder_init(void)
{
	INIT_WORK(&holder_item, holder_fn);
	return 0;
}

static void __exit holder_exit(void)
{
	cancel_work_sync(&holder_cancel_work);
	cancel_work_sync(&holder_item);
}

module_init(holder_init);
module_exit(holder_exit);

MODULE_DESCRIPTION("wqport test: a modern item another module arms the 2.6 way");
MODULE_LICENSE("GPL");

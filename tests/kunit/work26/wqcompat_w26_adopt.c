// SPDX-License-Identifier: GPL-2.0
/*
 * For adopt.sh: memory that wqcompat_w26_peer used for a legacy item
 * becomes this module's item while the peer's unload is under way, its
 * records marked dying and not yet cancelled (the shim held there by its
 * going_marked delay point).  Writing "adopt" waits for that moment,
 * initialises the item with this module's handler and queues it: it must
 * be queued and run, and stay this module's when the peer's unload
 * finishes.  Writing "check" afterwards queues it once more.  Verdicts in
 * parameter "result".
 */
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

/* The shim's delay points and hit counts (its test build: compat/hooks.c). */
#include "wqcompat_hooks.h"

static struct work_struct *adopt_items;	/* [0] legacy, [1] the peer's modern */
static struct workqueue_struct *adopt_wq;
static DECLARE_COMPLETION(adopt_ran);
static int adopt_baseline;
static char adopt_result[96] = "not run";
module_param_string(result, adopt_result, sizeof(adopt_result), 0444);

static void adopt_fn(void *data)
{
	complete(data);
}

/* Queue the item and wait for its run; the verdict in adopt_result. */
static void adopt_queue(const char *when)
{
	bool queued = queue_work(adopt_wq, &adopt_items[0]);
	bool ran = queued && wait_for_completion_timeout(&adopt_ran, 30 * HZ);

	snprintf(adopt_result, sizeof(adopt_result), "%s %s: queue_work %d, ran %d",
		 queued && ran ? "ok" : "not ok", when, queued, ran);
}

static int adopt_arm_set(const char *val, const struct kernel_param *kp)
{
	typeof(&wqcompat_test_hits) hits = symbol_get(wqcompat_test_hits);

	if (!hits)
		return -ENOENT;
	adopt_baseline = hits(WQCOMPAT_HOOK_GOING_MARKED);
	symbol_put(wqcompat_test_hits);
	return 0;
}

static int adopt_adopt_set(const char *val, const struct kernel_param *kp)
{
	typeof(&wqcompat_test_hits) hits = symbol_get(wqcompat_test_hits);
	unsigned long until = jiffies + 30 * HZ;

	if (!hits)
		return -ENOENT;
	/* Wait for the state: the peer's records are marked dying. */
	while (hits(WQCOMPAT_HOOK_GOING_MARKED) <= adopt_baseline &&
	       time_before(jiffies, until))
		schedule_timeout_uninterruptible(1);
	symbol_put(wqcompat_test_hits);
	if (time_after_eq(jiffies, until)) {
		strscpy(adopt_result, "not ok: the peer's unload never got there",
			sizeof(adopt_result));
		return 0;
	}
	INIT_WORK(&adopt_items[0], adopt_fn, &adopt_ran);
	adopt_queue("during the peer's unload");
	return 0;
}

static int adopt_check_set(const char *val, const struct kernel_param *kp)
{
	adopt_queue("after the peer's unload");
	return 0;
}

static const struct kernel_param_ops adopt_arm_ops = { .set = adopt_arm_set };
static const struct kernel_param_ops adopt_adopt_ops = { .set = adopt_adopt_set };
static const struct kernel_param_ops adopt_check_ops = { .set = adopt_check_set };
module_param_cb(arm, &adopt_arm_ops, NULL, 0200);
module_param_cb(adopt, &adopt_adopt_ops, NULL, 0200);
module_param_cb(check, &adopt_check_ops, NULL, 0200);

static int __init adopt_init(void)
{
	typeof(&peer_use) use = symbol_get(peer_use);

	adopt_items = kcalloc(2, sizeof(*adopt_items), GFP_KERNEL);
	adopt_wq = create_singlethread_workqueue("adopt");
	if (!use || !adopt_items || !adopt_wq)
		return -ENOENT;
	use(&adopt_items[0], &adopt_items[1], adopt_wq);
	symbol_put(peer_use);
	return 0;
}

static void __exit adopt_exit(void)
{
	destroy_workqueue(adopt_wq);
	kfree(adopt_items);
}

module_init(adopt_init);
module_exit(adopt_exit);

MODULE_DESCRIPTION("wqport test: an item at an address whose record another module's unload is tearing down");
MODULE_LICENSE("GPL");

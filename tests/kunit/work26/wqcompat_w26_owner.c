// SPDX-License-Identifier: GPL-2.0
/*
 * For owner.sh: memory that wqcompat_w26_peer used for its work items
 * becomes this module's items (records bound to those addresses by the
 * peer are adopted), each armed with a long delay.  After the peer is
 * unloaded, writing "check" tells whether both are still armed and
 * cancellable: the peer's unload must not have cancelled this module's
 * work.  The verdict is in parameter "result".
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

#define OWNER_DELAY (1000 * HZ)

static struct work_struct *owner_items;	/* [0] legacy, [1] modern */
static struct workqueue_struct *owner_wq;
static char owner_result[64] = "not checked";
module_param_string(result, owner_result, sizeof(owner_result), 0444);

static void owner_fn(void *data)
{
}

static void owner_modern_fn(struct work_struct *work)
{
}

static int owner_check_set(const char *val, const struct kernel_param *kp)
{
	bool p0 = work_pending(&owner_items[0]);
	bool p1 = work_pending(&owner_items[1]);
	int c0 = cancel_delayed_work(&owner_items[0]);
	int c1 = cancel_delayed_work(&owner_items[1]);

	snprintf(owner_result, sizeof(owner_result), "%s pending %d %d cancelled %d %d",
		 p0 && p1 && c0 && c1 ? "ok" : "not ok", p0, p1, c0, c1);
	return 0;
}

static const struct kernel_param_ops owner_check_ops = {
	.set = owner_check_set,
};
module_param_cb(check, &owner_check_ops, NULL, 0200);

static int __init owner_init(void)
{
	typeof(&peer_use) use = symbol_get(peer_use);

	owner_items = kcalloc(2, sizeof(*owner_items), GFP_KERNEL);
	owner_wq = create_singlethread_workqueue("owner");
	if (!use || !owner_items || !owner_wq)
		return -ENOENT;
	use(&owner_items[0], &owner_items[1], owner_wq);
	symbol_put(peer_use);

	INIT_WORK(&owner_items[0], owner_fn, NULL);
	INIT_WORK(&owner_items[1], owner_modern_fn);
	if (!queue_delayed_work(owner_wq, &owner_items[0], OWNER_DELAY) ||
	    !queue_delayed_work(owner_wq, &owner_items[1], OWNER_DELAY))
		return -EBUSY;
	return 0;
}

static void __exit owner_exit(void)
{
	cancel_delayed_work(&owner_items[0]);
	cancel_delayed_work(&owner_items[1]);
	destroy_workqueue(owner_wq);
	kfree(owner_items);
}

module_init(owner_init);
module_exit(owner_exit);

MODULE_DESCRIPTION("wqport test: items at addresses another module's records still name");
MODULE_LICENSE("GPL");

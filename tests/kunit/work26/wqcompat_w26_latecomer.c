// SPDX-License-Identifier: GPL-2.0
/*
 * For late-queue.sh: queues wqcompat_w26_quitter's bound item with the
 * overlay's inline queue_work(), built with the overlay's test hook, which
 * holds the queueing 3 s after the fast path validated the item's record
 * and before it queues the shadow.  The quitter unloads in that window.
 * The hold sleeps where it is allowed to (a preemptible section) and
 * spins otherwise.  The fast path holds preemption off across validation
 * and queueing, so the unload's grace period waits for it and cancels
 * what it queued; before the fix it validated first, the unload recycled
 * the record meanwhile, and the queueing queued a free record's shadow.
 * Parameters: "queue" (write: start), "in_hook", "result".
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

#define HOLD_NS (3 * NSEC_PER_SEC)

static struct work_struct *late_target;
static bool in_hook;
static char result[64] = "not queued";
module_param(in_hook, bool, 0444);
module_param_string(result, result, sizeof(result), 0444);

/* Called by the overlay's fast path (WQCOMPAT_OVERLAY_TEST_HOOK). */
void wqcompat_overlay_test_hook(struct work_struct *work)
{
	bool may_sleep = preemptible();
	u64 until;

	if (work != READ_ONCE(late_target))
		return;
	WRITE_ONCE(in_hook, true);
	until = ktime_get_ns() + HOLD_NS;
	while (ktime_get_ns() < until) {
		if (may_sleep)
			schedule_timeout_uninterruptible(1);
		else
			cpu_relax();
	}
	WRITE_ONCE(in_hook, false);
}

static void late_fn(struct work_struct *work)
{
	typeof(&quitter_work) get = symbol_get(quitter_work);
	struct work_struct *item;
	bool queued;

	if (!get) {
		strscpy(result, "not ok: no quitter", sizeof(result));
		return;
	}
	item = get();
	symbol_put(quitter_work);	/* the quitter may unload now */
	WRITE_ONCE(late_target, item);
	queued = schedule_work(item);
	WRITE_ONCE(late_target, NULL);
	snprintf(result, sizeof(result), "ok queued %d", queued);
}

static DECLARE_WORK(late_work, late_fn);

static int late_queue_set(const char *val, const struct kernel_param *kp)
{
	(queue_work)(system_unbound_wq, &late_work);
	return 0;
}

static const struct kernel_param_ops late_queue_ops = {
	.set = late_queue_set,
};
module_param_cb(queue, &late_queue_ops, NULL, 0200);

static int __init latecomer_init(void)
{
	return 0;
}

static void __exit latecomer_exit(void)
{
	cancel_work_sync(&late_work);
}

module_init(latecomer_init);
module_exit(latecomer_exit);

MODULE_DESCRIPTION("wqport test: queues an item while its module unloads");
MODULE_LICENSE("GPL");

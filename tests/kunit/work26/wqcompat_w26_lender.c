// SPDX-License-Identifier: GPL-2.0
/*
 * For lend.sh: this module owns a static legacy item and its handler, and
 * exports the item, as 2.6 drivers exported theirs (or queued them from
 * inline helpers in their headers).  wqcompat_w26_borrower queues it
 * first, armed for much later, then unloads.  Writing "check" tells
 * whether the item is still armed, can be cancelled, and then queued and
 * run by this module: the borrower's unload must not have taken it.  The
 * verdict is in parameter "result".
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

static DECLARE_COMPLETION(lender_ran);
static char lender_result[80] = "not checked";
module_param_string(result, lender_result, sizeof(lender_result), 0444);

static void lender_fn(void *data)
{
	complete(&lender_ran);
}

static DECLARE_WORK(lender_item, lender_fn, NULL);

/**
 * lender_work - the lender's item, for another module to queue
 *
 * Context: any.  Return: the item.
 */
struct work_struct *lender_work(void)
{
	return &lender_item;
}
EXPORT_SYMBOL_GPL(lender_work);

static int lender_check_set(const char *val, const struct kernel_param *kp)
{
	bool pending = work_pending(&lender_item);
	int cancelled = cancel_delayed_work(&lender_item);
	bool queued = schedule_work(&lender_item);
	bool ran = wait_for_completion_timeout(&lender_ran, 20 * HZ);

	snprintf(lender_result, sizeof(lender_result),
		 "%s pending %d cancelled %d queued %d ran %d",
		 pending && cancelled && queued && ran ? "ok" : "not ok",
		 pending, cancelled, queued, ran);
	return 0;
}

static const struct kernel_param_ops lender_check_ops = {
	.set = lender_check_set,
};
module_param_cb(check, &lender_check_ops, NULL, 0200);

static int __init lender_init(void)
{
	return 0;
}

static void __exit lender_exit(void)
{
	cancel_rearming_delayed_work(&lender_item);
}

module_init(lender_init);
module_exit(lender_exit);

MODULE_DESCRIPTION("wqport test: a legacy item another module queues first");
MODULE_LICENSE("GPL");

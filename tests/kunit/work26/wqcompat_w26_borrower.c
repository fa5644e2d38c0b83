// SPDX-License-Identifier: GPL-2.0
/*
 * For lend.sh: queues wqcompat_w26_lender's item first (its first
 * queueing binds it, from this module), armed for much later, and leaves
 * it so: the item and its handler are the lender's, and this module's
 * unload must not cancel it.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include "wqcompat_w26_helpers.h"

static int __init borrower_init(void)
{
	typeof(&lender_work) work = symbol_get(lender_work);
	bool armed;

	if (!work)
		return -ENOENT;
	armed = schedule_delayed_work(work(), 1000 * HZ);
	symbol_put(lender_work);
	return armed ? 0 : -EBUSY;
}

static void __exit borrower_exit(void)
{
}

module_init(borrower_init);
module_exit(borrower_exit);

MODULE_DESCRIPTION("wqport test: queues another module's legacy item first");
MODULE_LICENSE("GPL");

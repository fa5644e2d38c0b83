/* Rule 7 refused: module init starts with a declaration under #ifdef; the
 * allocation would go before the #ifdef, ahead of that declaration.  The
 * flush stays, with an item. */
#include <linux/module.h>
#include <linux/workqueue.h>

struct nic {
	struct work_struct reset;
};

static void nic_reset(void *data)
{
}

void nic_probe_one(struct nic *n)
{
	INIT_WORK(&n->reset, nic_reset, n);
}

void nic_error(struct nic *n)
{
	schedule_work(&n->reset);
}

static int __init nic_init(void)
{
#ifdef CONFIG_NIC_DEBUG
	int dbg = 1;

	pr_info("nic: debug %d\n", dbg);
#endif
	return 0;
}

static void __exit nic_exit(void)
{
	flush_scheduled_work();
}

module_init(nic_init);
module_exit(nic_exit);

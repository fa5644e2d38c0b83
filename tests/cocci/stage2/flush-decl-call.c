/* Rule 7 refused: the init function's declaration calls the driver's code
 * (int err = nic_register();), which runs before the private workqueue
 * could be allocated after the declarations; the device could queue on a
 * NULL workqueue.  flush_scheduled_work() stays, with an item. */
#include <linux/module.h>
#include <linux/workqueue.h>

struct nic {
	struct work_struct reset;
	int resets;
};

extern int nic_register(void);
extern void nic_unregister(void);

static void nic_reset(void *data)
{
	struct nic *n = data;

	n->resets++;
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
	int err = nic_register();

	if (err)
		return err;
	return 0;
}

static void __exit nic_exit(void)
{
	nic_unregister();
	flush_scheduled_work();
}

module_init(nic_init);
module_exit(nic_exit);

/*
 * Rule 4 with delayed work: a NIC watchdog that 2.6 drivers armed with the
 * net_device as data while the item lives in netdev_priv(dev).
 */
#include <linux/workqueue.h>

struct net_device;
struct nic {
	int irq;
	struct work_struct watchdog;
};

static void nic_watchdog(void *data)
{
	struct net_device *dev = (struct net_device *)data;
	struct nic *np = netdev_priv(dev);

	nic_check(np);
	schedule_delayed_work(&np->watchdog, HZ);
}

static int nic_open(struct net_device *dev)
{
	struct nic *np = netdev_priv(dev);

	INIT_WORK(&np->watchdog, nic_watchdog, dev);
	schedule_delayed_work(&np->watchdog, HZ);
	return 0;
}

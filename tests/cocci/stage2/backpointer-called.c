/*
 * Rule 4, a back-pointer handler that the driver also calls directly with
 * its data (smc91x.c of 2.6.18: smc_phy_configure(dev) from open and
 * resume, and as the work handler with dev as data): the handler stays as
 * it is for those calls, and a new work function after it reads the data
 * from the field beside the item and calls it.
 */
#include <linux/workqueue.h>

struct net_device;
struct smc_local {
	struct work_struct phy_configure;
	int link;
};

static void smc_phy_configure(void *data)
{
	struct net_device *dev = data;
	struct smc_local *lp = netdev_priv(dev);

	lp->link = 1;
}

static int smc_open(struct net_device *dev)
{
	smc_phy_configure(dev);
	return 0;
}

static int smc_probe(struct net_device *dev)
{
	struct smc_local *lp = netdev_priv(dev);

	INIT_WORK(&lp->phy_configure, smc_phy_configure, dev);
	return 0;
}

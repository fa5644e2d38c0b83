/*
 * A container handler called directly with an expression of type void *
 * (smc911x.c of 2.6.18: smc911x_phy_configure(netdev_priv(dev)) from
 * open): the call passes the item, the expression cast to the container
 * first, since -> cannot apply to a void *.
 */
#include <linux/netdevice.h>
#include <linux/workqueue.h>

struct smc_local {
	struct work_struct phy_configure;
	int link;
};

static void smc_phy_configure(void *data)
{
	struct smc_local *lp = data;

	lp->link = 1;
}

static int smc_open(struct net_device *dev)
{
	struct smc_local *lp = netdev_priv(dev);

	INIT_WORK(&lp->phy_configure, smc_phy_configure, lp);
	smc_phy_configure(netdev_priv(dev));
	smc_phy_configure(lp);
	return 0;
}

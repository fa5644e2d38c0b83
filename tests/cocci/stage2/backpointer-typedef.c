/*
 * Rule 4 with typedef'd containers, as 2.6 PCMCIA and PowerPC Ethernet
 * drivers wrote them (xirc2ps_cs's local_info_t, ucc_geth's
 * ucc_geth_private_t): the field goes into the typedef's struct, tagged or
 * not, after the item even when a comment or an #ifdef precedes it.
 */
#include <linux/workqueue.h>

struct net_device;

typedef struct {
	int mohawk;
	/* timeout handling, in process context */
	struct work_struct tx_timeout_task;
	int silicon;
} local_info_t;

typedef struct ucc_geth_private {
	int phy_addr;
#ifdef CONFIG_UGETH_PHY
	struct work_struct tq;
#endif
} ucc_geth_private_t;

static void xirc_tx_timeout_task(void *data)
{
	struct net_device *dev = data;

	netif_wake_queue(dev);
}

#ifdef CONFIG_UGETH_PHY
static void ugeth_phy_change(void *data)
{
	struct net_device *dev = (struct net_device *)data;

	ugeth_adjust_link(dev);
}
#endif

static int xirc_probe(struct net_device *dev)
{
	local_info_t *local = netdev_priv(dev);

	INIT_WORK(&local->tx_timeout_task, xirc_tx_timeout_task, dev);
	return 0;
}

static int ugeth_open(struct net_device *dev)
{
	ucc_geth_private_t *ugeth = netdev_priv(dev);

#ifdef CONFIG_UGETH_PHY
	INIT_WORK(&ugeth->tq, ugeth_phy_change, dev);
#endif
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Its .c: the reset handler is also the tx_timeout hook and is set up as a
 * handler before its definition (prototype first, as 2.6.18's tlan.c); the
 * PHY handler is only a handler. */
#include <linux/module.h>
#include <linux/netdevice.h>
#include "nic.h"

static void nic_tx_timeout(struct net_device *dev);
static void nic_phy_change(void *data);

static int nic_probe(struct net_device *dev)
{
	struct nic_priv *np = netdev_priv(dev);

	np->dev = dev;
	INIT_WORK(&np->reset_task, (void (*)(void *))nic_tx_timeout, dev);
	INIT_WORK(&np->phy_task, nic_phy_change, dev);
	dev->tx_timeout = nic_tx_timeout;
	return 0;
}

static void nic_tx_timeout(struct net_device *dev)
{
	struct nic_priv *np = netdev_priv(dev);

	spin_lock_irq(&np->lock);
	np->link = 0;
	spin_unlock_irq(&np->lock);
}

static void nic_phy_change(void *data)
{
	struct net_device *dev = data;
	struct nic_priv *np = netdev_priv(dev);

	np->link = 1;
	netif_carrier_on(dev);
}

void nic_link_irq(struct net_device *dev)
{
	struct nic_priv *np = netdev_priv(dev);

	schedule_work(&np->phy_task);
	schedule_work(&np->reset_task);
}

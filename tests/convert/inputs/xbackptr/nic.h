/* SPDX-License-Identifier: GPL-2.0 */
/* A 2.6.18 network driver's private structure, in its own header (as
 * ucc_geth.h, spider_net.h and tlan.h were): the work items' data is the
 * net_device, not this structure. */
#ifndef NIC_H
#define NIC_H

#include <linux/netdevice.h>
#include <linux/workqueue.h>

struct nic_priv {
	struct net_device *dev;
	spinlock_t lock;
	struct work_struct reset_task;
	struct work_struct phy_task;
	int link;
};

#endif

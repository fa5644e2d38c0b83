// SPDX-License-Identifier: GPL-2.0
/* A 2.4 network driver that still builds on 2.2 (as 2.4.18's bcm5700 and
 * ctctty did): its compatibility branch for kernels before 2.3.43 holds a
 * macro spatch cannot parse, with a bottom half in it.  No 2.4 kernel
 * compiles that branch; the driver's own task converts. */
#include <linux/version.h>
#include <linux/netdevice.h>
#include <linux/tqueue.h>

#if (LINUX_VERSION_CODE < 0x02032b)
#define netif_wake_queue(dev)	clear_bit(0, &dev->tbusy); mark_bh(NET_BH)
#define netif_stop_queue(dev)	set_bit(0, &dev->tbusy)
#endif

struct ob_priv {
	struct net_device *dev;
	struct tq_struct reset_task;
};

static void ob_reset(void *data)
{
	struct ob_priv *ob = data;

	netif_wake_queue(ob->dev);
}

static void ob_setup(struct ob_priv *ob)
{
	INIT_TQUEUE(&ob->reset_task, ob_reset, ob);
}

static void ob_tx_timeout(struct ob_priv *ob)
{
	netif_stop_queue(ob->dev);
	schedule_task(&ob->reset_task);
}

/* 2.6.9 tlan.c: a handler of another type, cast twice to pass as one. */
#include <linux/workqueue.h>

struct net_device;

struct tlan_priv {
	struct work_struct tlan_tqueue;
};

static void tlan_tx_timeout(struct net_device *dev)
{
	tlan_reset_adapter(dev);
}

void tlan_setup(struct tlan_priv *priv, struct net_device *dev)
{
	INIT_WORK(&priv->tlan_tqueue, (void *)(void *)tlan_tx_timeout, dev);
}

void tlan_error(struct tlan_priv *priv)
{
	schedule_work(&priv->tlan_tqueue);
}

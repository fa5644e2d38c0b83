/*
 * Rule 2/3: a handler cast twice on its way in, as 2.6.9's tlan.c did:
 * INIT_WORK(&priv->tlan_tqueue, (void *)(void*)TLan_tx_timeout, dev).
 */
#include <linux/workqueue.h>

struct baz {
	int state;
	struct work_struct work;
	struct work_struct reset;
	void *dev;
};

static void baz_work(struct baz *baz)
{
	baz->state++;
}

static void baz_reset(void *dev)
{
	struct baz *baz = dev;

	baz->state = 0;
}

static void baz_setup(struct baz *b)
{
	INIT_WORK(&b->work, (void *)(void *)baz_work, b);
	INIT_WORK(&b->reset, (void *)(void *)baz_reset, b->dev);
}

#include <linux/module.h>
#include <linux/slab.h>
#include "xp.h"

static struct xp_dev *xp_devs[2];

static void xp_reset(void *data)
{
	struct xp_dev *d = data;

	xp_stats_kick(d);
}

static int __init xp_init(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		xp_devs[i] = kzalloc(sizeof(*xp_devs[i]), GFP_KERNEL);
		if (!xp_devs[i])
			return -ENOMEM;
		INIT_WORK(&xp_devs[i]->reset, xp_reset, xp_devs[i]);
		schedule_work(&xp_devs[i]->reset);
	}
	return 0;
}

static void __exit xp_exit(void)
{
	flush_scheduled_work();
	kfree(xp_devs[0]);
	kfree(xp_devs[1]);
}

module_init(xp_init);
module_exit(xp_exit);

#include "xp.h"

static void xp_stats(void *data)
{
	struct xp_dev *d = data;

	(void)d;
}

void xp_stats_kick(struct xp_dev *d)
{
	INIT_WORK(&d->stats, xp_stats, d);
	schedule_work(&d->stats);
}

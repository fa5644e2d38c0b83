/* The handler is declared in the driver's header and defined in another
 * file (2.6.18's aoe: aoedev.c registers aoecmd_sleepwork() of aoecmd.c,
 * declared in aoe.h): reported here, not left for the leftover check. */
#include <linux/workqueue.h>
#include "aoe.h"

void aoedev_init(struct aoedev *d)
{
	INIT_WORK(&d->work, aoecmd_sleepwork, d);
}

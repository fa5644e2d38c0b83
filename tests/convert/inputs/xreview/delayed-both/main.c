#include "drv.h"

void drv_start(struct drv *d)
{
	INIT_WORK(&d->poll, drv_poll, d);
	schedule_delayed_work(&d->poll, 10);
}

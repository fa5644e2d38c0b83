#include "drv.h"

void drv_start(struct drv *d)
{
	INIT_WORK(&d->w, drv_task, d);
	schedule_work(&d->w);
}

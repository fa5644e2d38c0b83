#include "drv.h"

void drv_start(struct drv *d)
{
	INIT_WORK(&d->reset, drv_reset_task, d);
	schedule_work(&d->reset);
}

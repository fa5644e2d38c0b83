#include "drv.h"

void drv_poll(void *data)
{
	struct drv *d = data;

	d->state = 0;
}

void drv_hw_reinit(struct drv *d)
{
	INIT_WORK(&d->poll, drv_poll, d);
	schedule_delayed_work(&d->poll, 5);
}

#include "drv.h"

struct drv {
	int state;
	struct work_struct reset;
};

void drv_hw_reset(struct drv *d)
{
	d->state = 0;
}

void drv_start(struct drv *d)
{
	INIT_WORK(&d->reset, drv_reset_task, d);
	schedule_work(&d->reset);
}

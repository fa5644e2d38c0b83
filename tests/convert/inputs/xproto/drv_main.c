// SPDX-License-Identifier: GPL-2.0
/* The handler is defined and registered here, declared in drv.h. */
#include "drv.h"

void drv_reset_task(void *data)
{
	struct drv *d = data;

	d->state = 0;
}

void drv_start(struct drv *d)
{
	INIT_WORK(&d->reset, drv_reset_task, d);
	schedule_work(&d->reset);
}

// SPDX-License-Identifier: GPL-2.0
/* Registers the handlers that drv_hw.c defines. */
#include "drv.h"

void drv_start(struct drv *d)
{
	INIT_WORK(&d->reset, drv_reset_task, d);
	INIT_WORK(&d->poll, drv_poll, d->dev);
	INIT_WORK(&d->flush, drv_flush, d);
	schedule_work(&d->reset);
	schedule_delayed_work(&d->poll, 10);
}

void drv_stop(struct drv *d)
{
	drv_flush(d);
}

// SPDX-License-Identifier: GPL-2.0
/* Defines the handlers that drv_main.c registers. */
#include "drv.h"

void drv_reset_task(void *data)
{
	struct drv *d = data;

	d->state = 0;
}

void drv_poll(void *data)
{
	struct net_device *dev = data;

	if (dev)
		return;
}

void drv_flush(void *data)
{
	struct drv *d = data;

	d->state = 1;
}

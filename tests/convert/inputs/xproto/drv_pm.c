// SPDX-License-Identifier: GPL-2.0
/* Another file of the module: its own extern, and a direct call. */
#include "drv.h"

extern void drv_reset_task(void *data);

void drv_resume(struct drv *d)
{
	drv_reset_task(d);
}

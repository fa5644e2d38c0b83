// SPDX-License-Identifier: GPL-2.0
/* Another file of the module, with its own extern of the handler. */
#include "drv.h"

extern void drv_reset_task(void *data);

void drv_resume(struct drv *d)
{
	schedule_work(&d->reset);
}

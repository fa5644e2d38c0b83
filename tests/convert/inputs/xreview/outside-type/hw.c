#include "drv.h"

void drv_reset_task(void *data)
{
	struct drv *d = data;

	d->state = 0;
}

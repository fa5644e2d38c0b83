#include "drv.h"

void drv_task(void *data)
{
	struct drv *d = data;

	d->pad[0] = 0;
}

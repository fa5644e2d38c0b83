#include "drv.h"

static int ticks;

void drv_task(void *data)
{
	ticks++;
}

void drv_hw_init(void)
{
	drv_task(NULL);
}

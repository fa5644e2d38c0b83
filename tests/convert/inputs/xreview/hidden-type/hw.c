#include "drv.h"

void drv_reset_task(void *data)
{
	drv_hw_reset(data);
}

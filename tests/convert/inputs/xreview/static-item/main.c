#include "drv.h"

static DECLARE_WORK(drv_work, drv_task, NULL);

void drv_start(void)
{
	schedule_work(&drv_work);
}

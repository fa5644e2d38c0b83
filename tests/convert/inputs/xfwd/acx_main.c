// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include "acx_compat.h"

struct acx_device {
	struct work_struct after_interrupt_task;
	struct work_struct reset_task;
	int irq_status;
};

static void acx_after_interrupt_task(void *data)
{
	struct acx_device *adev = data;

	adev->irq_status = 0;
}

static void acx_reset_task(void *data)
{
	struct acx_device *adev = data;

	adev->irq_status = 1;
}

void acx_init(struct acx_device *adev)
{
	INIT_WORK_COMPAT(&adev->after_interrupt_task, acx_after_interrupt_task, adev);
	REORDER_WORK(&adev->reset_task, adev, acx_reset_task);
}

void acx_irq(struct acx_device *adev)
{
	schedule_work(&adev->after_interrupt_task);
	schedule_work(&adev->reset_task);
}

/*
 * Rule 2, reported: acx100 (2005) style, INIT_WORK() inside the driver's
 * own compat macro, its handler a parameter of the macro.  The macro's
 * users give the handlers; the report names the macro, not "f() is not
 * defined in this file".
 */
#include <linux/workqueue.h>

#define INIT_WORK_COMPAT(w, f, d) INIT_WORK(w, f, d)

struct acx_device {
	struct work_struct after_interrupt_task;
	int irq_status;
};

static void acx_after_interrupt_task(void *data)
{
	struct acx_device *adev = data;

	adev->irq_status = 0;
}

void acx_init(struct acx_device *adev)
{
	INIT_WORK_COMPAT(&adev->after_interrupt_task, acx_after_interrupt_task, adev);
}

void acx_irq(struct acx_device *adev)
{
	schedule_work(&adev->after_interrupt_task);
}

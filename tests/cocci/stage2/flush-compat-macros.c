/*
 * Rule 7, reported: acx100 (2005) style, the driver's own function-like
 * macros around the calls.  The item reaches schedule_work() only through
 * the macro's parameter, which names no item: the report says the flush
 * has none it can see, not "the items of the driver (w)".
 */
#include <linux/workqueue.h>

#define SCHEDULE_WORK(w) schedule_work(w)
#define FLUSH_SCHEDULED_WORK() flush_scheduled_work()

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
	INIT_WORK(&adev->after_interrupt_task, acx_after_interrupt_task, adev);
}

void acx_irq(struct acx_device *adev)
{
	SCHEDULE_WORK(&adev->after_interrupt_task);
}

void acx_stop(struct acx_device *adev)
{
	FLUSH_SCHEDULED_WORK();
}

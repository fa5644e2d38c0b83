/*
 * acx100 / ndiswrapper style: sources that build on 2.4 and 2.6 keep a
 * branch for each, in a compatibility block and around the calls.  No
 * 2.6 or later kernel compiles a branch for 2.4: stage 1 leaves it whole
 * (half rewritten, it would build on neither kernel), and the branch for
 * 2.6 already is what stage 1 would write.
 */
#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 5, 41)
#include <linux/tqueue.h>
#define WORK_STRUCT tq_struct
#define SCHEDULE_WORK(w) schedule_task(w)
#define FLUSH_SCHEDULED_WORK() flush_scheduled_tasks()
#else
#include <linux/workqueue.h>
#define WORK_STRUCT work_struct
#define SCHEDULE_WORK(w) schedule_work(w)
#define FLUSH_SCHEDULED_WORK() flush_scheduled_work()
#endif

struct acx_device {
	struct WORK_STRUCT after_irq_task;
	int irq_status;
};

static void acx_after_irq(void *data)
{
	struct acx_device *adev = data;

	adev->irq_status = 0;
}

void acx_init(struct acx_device *adev)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 5, 41)
	INIT_TQUEUE(&adev->after_irq_task, acx_after_irq, adev);
	adev->after_irq_task.sync = 0;
#else
	INIT_WORK(&adev->after_irq_task, acx_after_irq, adev);
#endif
}

void acx_irq(struct acx_device *adev)
{
	SCHEDULE_WORK(&adev->after_irq_task);
}

void acx_stop(struct acx_device *adev)
{
	FLUSH_SCHEDULED_WORK();
}

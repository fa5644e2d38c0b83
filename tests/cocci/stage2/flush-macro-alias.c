/*
 * One item is queued through the driver's own alias of schedule_work()
 * (acx100 and ndiswrapper kept such compat macros), the other plainly.
 * A private workqueue would take the plain call and the flush but not the
 * macro's: flush_workqueue() would no longer wait for that item.  No
 * private workqueue: W121 names the macro.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#define SCHEDULE_WORK schedule_work

struct drv {
	int jobs;
	struct work_struct irq_task;
	struct work_struct cfg_task;
};

static struct drv *the_drv;

static void drv_irq_task(void *data)
{
	struct drv *d = data;

	d->jobs = 0;
}

static void drv_cfg_task(void *data)
{
	struct drv *d = data;

	d->jobs++;
}

void drv_irq(struct drv *d)
{
	SCHEDULE_WORK(&d->irq_task);
}

void drv_config(struct drv *d)
{
	schedule_work(&d->cfg_task);
}

static int __init drv_init(void)
{
	the_drv = kzalloc(sizeof(*the_drv), GFP_KERNEL);
	if (!the_drv)
		return -ENOMEM;
	INIT_WORK(&the_drv->irq_task, drv_irq_task, the_drv);
	INIT_WORK(&the_drv->cfg_task, drv_cfg_task, the_drv);
	return 0;
}

static void __exit drv_exit(void)
{
	flush_scheduled_work();
	kfree(the_drv);
}

module_init(drv_init);
module_exit(drv_exit);

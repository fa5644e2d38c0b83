/* Field stores on a task whose struct tq_struct is in the driver's header. */
#include <linux/module.h>
#include <linux/tqueue.h>
#include "hdrdrv.h"

static struct hdrdrv_dev hdrdrv;

static void hdrdrv_task(void *data)
{
	struct hdrdrv_dev *dev = data;

	dev->events++;
}

static void hdrdrv_event(struct hdrdrv_dev *dev)
{
	schedule_task(&dev->tqueue);
}

static int __init hdrdrv_init(void)
{
	hdrdrv.tqueue.routine = hdrdrv_task;
	hdrdrv.tqueue.data = &hdrdrv;
	hdrdrv_event(&hdrdrv);
	return 0;
}

module_init(hdrdrv_init);
MODULE_LICENSE("GPL");

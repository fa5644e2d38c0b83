/* Includes hdr/hdrdrv.h, and queues onto tq_disk: stage 1 leaves it alone. */
#include <linux/tqueue.h>
#include "hdrdrv.h"

static void unplug_task(void *data)
{
}

static struct tq_struct unplug_tq = { routine: unplug_task };

void hdr_blocked_unplug(struct hdrdrv_dev *dev)
{
	queue_task(&unplug_tq, &tq_disk);
	schedule_task(&dev->tqueue);
}

/* Includes hdr/hdrdrv.h, and queues the header's task onto tq_disk: stage 1
 * leaves that task on the 2.4 API, here and in every file of the run. */
#include <linux/tqueue.h>
#include "hdrdrv.h"

static void unplug_task(void *data)
{
}

static struct tq_struct unplug_tq = { routine: unplug_task };

void hdr_blocked_unplug(struct hdrdrv_dev *dev)
{
	queue_task(&unplug_tq, &tq_disk);
	queue_task(&dev->tqueue, &tq_disk);
}

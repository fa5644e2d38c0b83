/*
 * usbnet style: sync read to tell whether the task is still queued, then
 * the task filled in and queued: the read is work_pending(), 2.4's bit 0
 * of sync (queued, not yet run); the stores are INIT_WORK().
 */
#include <linux/tqueue.h>

struct usbdev {
	struct tq_struct ctrl_task;
	int stalls;
};

static void clear_halt(void *data);

void tx_complete(struct usbdev *dev, int status)
{
	if (status == -32) {
		if (dev->ctrl_task.sync == 0) {
			dev->ctrl_task.routine = clear_halt;
			dev->ctrl_task.data = dev;
			schedule_task(&dev->ctrl_task);
		} else
			dev->stalls++;
	}
}

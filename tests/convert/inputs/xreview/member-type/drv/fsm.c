#include <linux/workqueue.h>
#include <asm/ccw.h>
#include "cio.h"

static void ccw_oper_notify(void *data)
{
	struct ccw_dev *cdev = data;

	cdev->private->state = cdev->id;
}

void ccw_online(struct ccw_dev *cdev)
{
	INIT_WORK(&cdev->private->kick_work, ccw_oper_notify, (void *)cdev);
	queue_work(ccw_wq, &cdev->private->kick_work);
}

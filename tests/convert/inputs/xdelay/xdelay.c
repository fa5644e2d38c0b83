/* Delayed work on a field its own header declares. */
#include <linux/workqueue.h>
#include "xdelay.h"

static void xd_poll(void *data)
{
	struct xd_dev *dev = data;

	dev->polls++;
	queue_delayed_work(dev->wq, &dev->poll, HZ);
}

void xd_start(struct xd_dev *dev)
{
	INIT_WORK(&dev->poll, xd_poll, dev);
	queue_delayed_work(dev->wq, &dev->poll, 0);
}

void xd_stop(struct xd_dev *dev)
{
	cancel_delayed_work(&dev->poll);
	flush_workqueue(dev->wq);
}

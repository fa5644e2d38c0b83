/* A delayed item handed to a pointer variable, and armed through it: the
 * item stays a work_struct (W103), and the item names the variable, whose
 * delayed calls then take a struct work_struct. */
#include <linux/workqueue.h>

struct tp_dev {
	struct work_struct poll;
	int polls;
};

static struct workqueue_struct *tp_wq;

static void tp_poll(void *data)
{
	struct tp_dev *dev = data;
	struct work_struct *again = &dev->poll;

	dev->polls++;
	queue_delayed_work(tp_wq, again, HZ);
}

void tp_start(struct tp_dev *dev)
{
	INIT_WORK(&dev->poll, tp_poll, dev);
	queue_delayed_work(tp_wq, &dev->poll, HZ);
}

/*
 * Rule 2/3: the data is the item itself, a handler that queues its own
 * item again through its void * (2.4's `tq.data = &tq` carried to 2.6):
 * the work parameter is that pointer; no field is added for it.
 */
#include <linux/workqueue.h>

struct dev {
	int count;
	struct work_struct poll;
};

static void dev_poll(void *data)
{
	struct work_struct *w = data;

	schedule_work(w);
}

static void dev_start(struct dev *d)
{
	INIT_WORK(&d->poll, dev_poll, &d->poll);
	schedule_work(&d->poll);
}

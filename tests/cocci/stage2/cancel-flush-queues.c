/*
 * cancel_delayed_work() then flush_workqueue(): one cancel_delayed_work_sync()
 * where the queue is a static one of the file that holds no other item of
 * it; the flush stays where the queue is one other files of the module
 * reach (a structure's, a global), as 2005's bcm43xx queued its other
 * items on its device's queue from another file.
 */
#include <linux/workqueue.h>

struct dev {
	struct workqueue_struct *wq;
	struct work_struct tx;
};

static struct workqueue_struct *poll_wq;
static struct work_struct poll;

static void poll_fn(void *data)
{
	queue_delayed_work(poll_wq, &poll, HZ);
}

static void tx_fn(void *data)
{
	struct dev *d = data;

	queue_delayed_work(d->wq, &d->tx, 1);
}

void dev_start(struct dev *d)
{
	INIT_WORK(&poll, poll_fn, NULL);
	INIT_WORK(&d->tx, tx_fn, d);
	queue_delayed_work(poll_wq, &poll, HZ);
	queue_delayed_work(d->wq, &d->tx, 1);
}

void dev_stop(struct dev *d)
{
	cancel_delayed_work(&poll);
	flush_workqueue(poll_wq);
	cancel_delayed_work(&d->tx);
	flush_workqueue(d->wq);
}

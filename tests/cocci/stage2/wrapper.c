/*
 * A driver's own wrapper of queue_delayed_work() (2.6.18 style: it picks
 * the device's workqueue): the field it is given is delayed work, so it
 * becomes struct delayed_work, and so does the wrapper's parameter, in the
 * prototype and the definition.  reset, queued plainly, stays.
 */
#include <linux/workqueue.h>

struct foo {
	struct workqueue_struct *wq;
	struct work_struct poll;
	struct work_struct reset;
};

static void foo_queue_delayed_work(struct foo *dev, struct work_struct *work,
				   unsigned long delay);

static void foo_poll(void *data)
{
	struct foo *foo = data;

	foo_queue_delayed_work(foo, &foo->poll, HZ);
}

static void foo_reset(void *data)
{
}

static void foo_queue_delayed_work(struct foo *dev, struct work_struct *work,
				   unsigned long delay)
{
	queue_delayed_work(dev->wq, work, delay);
}

void foo_start(struct foo *foo)
{
	INIT_WORK(&foo->poll, foo_poll, foo);
	INIT_WORK(&foo->reset, foo_reset, foo);
	foo_queue_delayed_work(foo, &foo->poll, 0);
	schedule_work(&foo->reset);
}

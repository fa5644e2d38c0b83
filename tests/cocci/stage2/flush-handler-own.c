/*
 * Rule 7: flush_scheduled_work() inside a work handler (2.6 ran the rest of
 * keventd's queue by hand there): flush_work() of the other items, not of
 * the handler's own, which would wait for itself; the exit path flushes all.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

struct dev {
	int count;
	struct work_struct reset;
	struct work_struct poll;
};

static struct dev the_dev;

static void dev_poll(void *data)
{
	struct dev *d = data;

	d->count++;
}

static void dev_reset(void *data)
{
	struct dev *d = data;

	flush_scheduled_work();
	d->count = 0;
}

static int __init dev_init(void)
{
	INIT_WORK(&the_dev.poll, dev_poll, &the_dev);
	INIT_WORK(&the_dev.reset, dev_reset, &the_dev);
	schedule_work(&the_dev.poll);
	schedule_work(&the_dev.reset);
	return 0;
}

static void __exit dev_exit(void)
{
	flush_scheduled_work();
}

module_init(dev_init);
module_exit(dev_exit);

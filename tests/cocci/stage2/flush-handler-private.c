/*
 * Rule 7: flush_scheduled_work() inside the work handler of a per-device
 * item: no private workqueue (flushed from its own work it would wait for
 * itself), reported at both flushes.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct dev {
	int count;
	struct work_struct reset;
};

static void dev_reset(void *data)
{
	struct dev *d = data;

	flush_scheduled_work();
	d->count = 0;
}

static struct dev *dev_new(void)
{
	struct dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (d) {
		INIT_WORK(&d->reset, dev_reset, d);
		schedule_work(&d->reset);
	}
	return d;
}

static int __init dev_init(void)
{
	return dev_new() ? 0 : -ENOMEM;
}

static void __exit dev_exit(void)
{
	flush_scheduled_work();
}

module_init(dev_init);
module_exit(dev_exit);

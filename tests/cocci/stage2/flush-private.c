/* Rule 7: per-device items flushed with flush_scheduled_work(), in a file
 * that defines the module's init and exit: a private workqueue (a
 * declaration followed by an assignment, as 2.6.18 cdc-acm.c's). */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct dev {
	struct work_struct w;
	int n;
};

static struct dev *devs[4];
static int dev_count;

static void dev_fn(void *data)
{
	struct dev *d = data;

	d->n++;
}

static int dev_probe(int i)
{
	devs[i] = kzalloc(sizeof(*devs[i]), GFP_KERNEL);
	if (!devs[i])
		return -ENOMEM;
	INIT_WORK(&devs[i]->w, dev_fn, devs[i]);
	return 0;
}

static void dev_kick(struct dev *d)
{
	schedule_work(&d->w);
	flush_scheduled_work();
}

static int __init dev_init(void)
{
	int i, err;
	dev_count = 0;
	for (i = 0; i < 4; i++) {
		err = dev_probe(i);
		if (err) {
			pr_err("probe %d: %d\n", i, err);
			return err;
		}
		dev_count++;
	}
	dev_kick(devs[0]);
	if (devs[1]->n)
		return -EIO;
	return dev_probe(0) ? -ENODEV : 0;
}

static void __exit dev_exit(void)
{
	int i;

	flush_scheduled_work();
	for (i = 0; i < 4; i++)
		kfree(devs[i]);
}

module_init(dev_init);
module_exit(dev_exit);

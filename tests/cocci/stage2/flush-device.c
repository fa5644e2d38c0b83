/* Rule 7, reported: flush_scheduled_work() with per-device items. */
#include <linux/workqueue.h>

struct dev {
	struct work_struct w;
};

static void dev_fn(void *data)
{
	struct dev *d = data;

	(void)d;
}

static void dev_kick(struct dev *d)
{
	INIT_WORK(&d->w, dev_fn, d);
	schedule_work(&d->w);
}

static void __exit dev_exit(void)
{
	flush_scheduled_work();
}

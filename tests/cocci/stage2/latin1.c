/* Latin-1 bytes where a metavariable can reach them (2.4.27 amd7930_fn.c). */
#include <linux/workqueue.h>

struct dev {
	struct work_struct work;
	int n;
};

static void reset(int cmd);

static void dev_work(void *data)
{
	struct dev *d = data;

	if (d->n < 8)
		/* setzt Register zurück */
		reset(d->n);
}

void dev_setup(struct dev *d)
{
	INIT_WORK(&d->work, dev_work, d);
	schedule_delayed_work(&d->work, 10);
}

/* Reported: work items in an array with per-item data. */
#include <linux/workqueue.h>

struct chan { int n; };
struct dev {
	struct work_struct chan_work[4];
	struct chan chans[4];
};

static void chan_fn(void *data)
{
	struct chan *c = data;

	c->n++;
}

static void dev_setup(struct dev *d)
{
	int i;

	for (i = 0; i < 4; i++)
		INIT_WORK(&d->chan_work[i], chan_fn, &d->chans[i]);
}

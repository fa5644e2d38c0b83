/* Rule 4: an array element that is a struct holding the item, with the
 * element itself as data, is the container: container_of() recovers it
 * whatever the index.  Per-item data elsewhere is still reported. */
#include <linux/workqueue.h>

struct dev;

struct step {
	struct work_struct work;
	struct dev *dev;
	int nr;
};

struct lane {
	struct work_struct work;
	int n;
};

struct dev {
	struct step steps[3];
	struct lane lanes[2];
	int lane_data[2];
	struct work_struct chan_work[2];
	int ran;
};

static void step_fn(void *data)
{
	struct step *s = data;

	s->dev->ran += s->nr;
}

static void lane_fn(void *data)
{
	struct lane *l = data;

	l->n++;
}

static void chan_fn(void *data)
{
	int *n = data;

	(*n)++;
}

static void dev_setup(struct dev *d)
{
	int i;

	for (i = 0; i < 3; i++) {
		d->steps[i].dev = d;
		d->steps[i].nr = i;
		INIT_WORK(&d->steps[i].work, step_fn, &d->steps[i]);
	}
	for (i = 0; i < 2; i++)
		INIT_WORK(&d->lanes[i].work, lane_fn, &d->lanes[i]);
	for (i = 0; i < 2; i++)
		INIT_WORK(&d->chan_work[i], chan_fn, &d->lane_data[i]);
	step_fn(&d->steps[0]);
}

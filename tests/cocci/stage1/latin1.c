/* Latin-1 bytes where a metavariable can reach them (2.4.27 amd7930_fn.c). */
#include <linux/tqueue.h>

struct dev {
	struct tq_struct tq;
	int n;
};

static void reset(int cmd);

static void dev_bh(void *data)
{
	struct dev *d = data;

	if (d->n < 8)
		/* setzt Register zurück */
		reset(d->n);
}

void dev_setup(struct dev *d)
{
	INIT_TQUEUE(&d->tq, dev_bh, d);
	schedule_task(&d->tq);
}

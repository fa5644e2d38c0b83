/* A container defined with an array of itself: stage 2 does not add the
 * back-pointer field there, and says so, naming the field the handler now
 * reads (it said nothing before, and the output did not build). */
#include <linux/workqueue.h>

struct irqs {
	int enabled;
};

static struct foo {
	struct work_struct w;
	struct irqs *irq;
} foo_devs[2];

static void foo_bh(void *data)
{
	struct irqs *i = data;

	i->enabled++;
}

void foo_register(struct irqs *i, struct foo *f)
{
	INIT_WORK(&f->w, foo_bh, i);
}

/* A container defined with a variable (`static struct foo {...} foo_dev;`,
 * as many 2.4 drivers kept their one device): it gets its back-pointer
 * field like a bare definition. */
#include <linux/workqueue.h>

struct irqs {
	int enabled;
};

static struct foo {
	struct work_struct w;
	struct irqs *irq;
} foo_dev;

static void foo_bh(void *data)
{
	struct irqs *i = data;

	i->enabled++;
}

void foo_register(struct irqs *i, struct foo *f)
{
	INIT_WORK(&f->w, foo_bh, i);
}

/* An attribute between struct and its tag (ndiswrapper 0.12's
 * `struct packed ndis_handle {`): the container is defined here. */
#include <linux/workqueue.h>

struct irqs {
	int enabled;
};

struct __packed foo {
	struct work_struct w;
	struct irqs *irq;
};

static void foo_bh(void *data)
{
	struct irqs *i = data;

	i->enabled++;
}

void foo_register(struct irqs *i, struct foo *f)
{
	INIT_WORK(&f->w, foo_bh, i);
}

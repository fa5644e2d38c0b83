/* ndiswrapper 0.12: the driver's own name for an attribute after the
 * container of a work item whose data is another pointer.  spatch took
 * `packed` for a variable: the handler read a back-pointer field that was
 * never added.  The field goes in. */
#include <linux/workqueue.h>
#define packed __attribute__((packed))

struct irqs {
	int enabled;
};

struct foo {
	struct work_struct w;
	struct irqs *irq;
} packed;

static void foo_bh(void *data)
{
	struct irqs *i = data;

	i->enabled++;
}

void foo_register(struct irqs *i, struct foo *f)
{
	INIT_WORK(&f->w, foo_bh, i);
}

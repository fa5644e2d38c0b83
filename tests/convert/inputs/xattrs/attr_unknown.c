/* A name no file of the run defines between struct and its tag: spatch
 * does not parse the container, stage 2 cannot add the back-pointer field
 * the handler now reads.  Said, with what to add. */
#include <linux/workqueue.h>

struct irqs {
	int enabled;
};

struct MYPACK foo {
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

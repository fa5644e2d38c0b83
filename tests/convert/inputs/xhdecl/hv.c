/* Its container is defined in hv.h with a variable. */
#include "hv.h"

static void hv_bh(void *data)
{
	struct irqs *i = data;

	i->enabled++;
}

void hv_register(struct irqs *i, struct hv *f)
{
	INIT_WORK(&f->w, hv_bh, i);
}

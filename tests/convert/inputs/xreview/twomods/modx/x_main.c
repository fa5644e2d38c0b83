#include "x.h"

void reset_task(void *data)
{
	struct xdev *x = data;

	x->state = 0;
}

void x_start(struct xdev *x)
{
	INIT_WORK(&x->reset, reset_task, x);
	schedule_work(&x->reset);
}

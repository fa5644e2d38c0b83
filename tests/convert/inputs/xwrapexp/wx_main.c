/* ndiswrapper 0.12's exported functions: named through a macro of the
 * driver's header, which spatch does not see ("WRAP_EXPORT declared as
 * function returning a function"), so it skips the function that sets up
 * the work item.  Refused with the lines, not half converted. */
#include "wx.h"

static void foo_bh(void *data)
{
	struct foo *f = data;

	f->n++;
}

void WRAP_EXPORT(FooRegister)(struct foo *f)
{
	INIT_WORK(&f->w, foo_bh, f);
}

void foo_kick(struct foo *f)
{
	schedule_work(&f->w);
}

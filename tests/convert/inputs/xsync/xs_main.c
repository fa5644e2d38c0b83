/* Converting the task from this file's view alone would retype it in xs.h
 * while xs_debug.h still reads its list. */
#include "xs.h"

static void xs_softint(void *data)
{
}

void xs_open(struct xs_port *p)
{
	INIT_TQUEUE(&p->tq, xs_softint, p);
}

void xs_event(struct xs_port *p)
{
	schedule_task(&p->tq);
}

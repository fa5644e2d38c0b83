/* Includes both headers. */
#include "xs.h"
#include "xs_debug.h"

int xs_busy(struct xs_port *p)
{
	return XS_TASK_LINKED(p);
}

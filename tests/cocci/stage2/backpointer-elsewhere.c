/*
 * Rule 4, reported: the container is defined in a header, which this
 * file's conversion does not write.
 */
#include <linux/workqueue.h>
#include "sx.h"

static void sx_hangup(void *data)
{
	struct sx_port *port = data;

	sx_do_hangup(port);
}

void sx_setup(struct sx_board *bp, struct sx_port *port)
{
	INIT_WORK(&bp->hangup_work, sx_hangup, port);
}

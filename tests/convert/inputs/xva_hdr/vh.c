// SPDX-License-Identifier: GPL-2.0
/*
 * A task queued on tq_immediate through the header's variadic macro stays
 * on the 2.4 API with it (W011), and the header's field with it; the task
 * scheduled directly converts.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include "vh.h"

static struct vh_port vh_port;

static void vh_softint(void *data)
{
	struct vh_port *port = data;

	port->events++;
}

static void vh_hangup(void *data)
{
	struct vh_port *port = data;

	port->events = 0;
}

void vh_interrupt(void)
{
	VH_QUEUE_TASK(&vh_port.tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static int __init vh_init(void)
{
	vh_port.tqueue.routine = vh_softint;
	vh_port.tqueue.data = &vh_port;
	vh_port.hangup.routine = vh_hangup;
	vh_port.hangup.data = &vh_port;
	schedule_task(&vh_port.hangup);
	return 0;
}

static void __exit vh_exit(void)
{
	flush_scheduled_tasks();
}

module_init(vh_init);
module_exit(vh_exit);
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks declared through a typedef of a macro for struct tq_struct, their
 * fields stored one by one: they stay on the 2.4 API (W021), and so does
 * the header's macro that declares them.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include "ac.h"

static struct ac_port ac_port;

static void ac_softint(void *data)
{
	struct ac_port *port = data;

	port->events++;
}

static int __init ac_init(void)
{
	ac_port.tqueue.routine = ac_softint;
	ac_port.tqueue.data = &ac_port;
	queue_task(&ac_port.tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	return 0;
}

module_init(ac_init);
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * The .c of a 2.4 serial-style driver (as 2.4's drivers/char/serial.c):
 * an array of ports whose tasks get their routine and data by stores in
 * a loop, an event task on tq_immediate from a helper, a hangup task for
 * keventd, a routine that casts its data pointer back.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include "fz24_ports.h"

struct fzp_port fzp_ports[FZP_NR];

static void fzp_do_softint(void *private_)
{
	struct fzp_port *port = (struct fzp_port *)private_;

	port->events++;
}

static void fzp_do_hangup(void *private_)
{
	struct fzp_port *port = private_;

	port->events = 0;
}

void fzp_sched_event(struct fzp_port *port)
{
	queue_task(&port->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static void fzp_hangup(struct fzp_port *port)
{
	schedule_task(&port->tqueue_hangup);
}

static int __init fzp_init(void)
{
	int i;

	for (i = 0; i < FZP_NR; i++) {
		struct fzp_port *port = &fzp_ports[i];

		port->line = i;
		port->tqueue.routine = fzp_do_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = fzp_do_hangup;
		port->tqueue_hangup.data = port;
	}
	fzp_sched_event(&fzp_ports[0]);
	fzp_hangup(&fzp_ports[1]);
	return 0;
}

static void __exit fzp_exit(void)
{
	flush_scheduled_tasks();
}

module_init(fzp_init);
module_exit(fzp_exit);
MODULE_LICENSE("GPL");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 2.4 serial-style driver in two files for the fuzzer: the header
 * declares the port structure, with its tasks, and the array of ports.
 */
#ifndef FZ24_PORTS_H
#define FZ24_PORTS_H

#include <linux/tqueue.h>

#define FZP_NR 4

struct fzp_port {
	int line;
	int events;
	struct tq_struct tqueue;
	struct tq_struct tqueue_hangup;
};

extern struct fzp_port fzp_ports[FZP_NR];

void fzp_sched_event(struct fzp_port *port);

#endif /* FZ24_PORTS_H */

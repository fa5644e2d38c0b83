/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's queueing macro, variadic, in its header with the port
 * structure: the .c queues through it (tests/convert/run).
 */
#ifndef VH_H
#define VH_H

#include <linux/tqueue.h>
#define VH_QUEUE_TASK(...) queue_task(__VA_ARGS__)

struct vh_port {
	int events;
	struct tq_struct tqueue;
	struct tq_struct hangup;
};

#endif /* VH_H */

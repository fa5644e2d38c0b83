/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 2.4 driver in two files for the fuzzer: its tasks are fields of a
 * structure its header declares, queued from the .c.
 */
#ifndef FZ24_SPLIT_H
#define FZ24_SPLIT_H

#include <linux/tqueue.h>
#include <linux/spinlock.h>

struct fzt_dev {
	spinlock_t lock;
	struct tq_struct rx_task;
	struct tq_struct poll_task;
	int rx;
	int polls;
	int stopping;
};

void fzt_rx_irq(struct fzt_dev *dev);

#endif /* FZ24_SPLIT_H */

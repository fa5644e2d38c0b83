/* SPDX-License-Identifier: GPL-2.0 */
/* oldsched.h: the driver's own header, beside its sources, as 2.4 had them. */
#ifndef OLDSCHED_H
#define OLDSCHED_H

#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>

struct oldsched_dev {
	struct tq_struct tq;		/* keventd: refreshes last[] */
	struct tq_struct tick_tq;	/* requeues itself on tq_timer */
	spinlock_t lock;		/* everything below; a timer takes it too */
	int polls;
	int ticks;
	int timeouts;
	int stopping;
	char last[16];
	struct completion ticked;	/* the last tick is over */
};

extern struct oldsched_dev oldsched;
void oldsched_hw_poll(struct oldsched_dev *dev);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* oldsched.h: the driver's own header, beside its sources, as 2.4 had them. */
#ifndef OLDSCHED_H
#define OLDSCHED_H

#include <linux/tqueue.h>

struct oldsched_dev {
	struct tq_struct tq;
	int polls;
	char last[16];
};

extern struct oldsched_dev oldsched;
void oldsched_hw_poll(struct oldsched_dev *dev);

#endif

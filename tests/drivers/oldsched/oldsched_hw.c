// SPDX-License-Identifier: GPL-2.0
/* oldsched_hw.c: the "hardware" half of the demo driver. */
#include <linux/kernel.h>
#include <linux/string.h>
#include "oldsched.h"

void oldsched_hw_poll(struct oldsched_dev *dev)
{
	dev->polls++;
	snprintf(dev->last, sizeof(dev->last), "poll %d", dev->polls);
}

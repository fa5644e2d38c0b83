// SPDX-License-Identifier: GPL-2.0
/* Uses the aliases of xa_compat.h: the flush is behind one. */
#include <linux/module.h>
#include "xa_compat.h"

struct xa_dev {
	struct work_struct kevent;
	struct work_struct poll;
	struct work_struct reset;
	int flags;
};

static void xa_kevent(void *data)
{
	struct xa_dev *dev = data;

	dev->flags = 0;
}

static void xa_poll(void *data)
{
	struct xa_dev *dev = data;

	dev->flags |= 1;
}

static void xa_reset(struct work_struct *work)
{
	struct xa_dev *dev = container_of(work, struct xa_dev, reset);

	dev->flags |= 2;
}

void xa_open(struct xa_dev *dev)
{
	INIT_WORK(&dev->kevent, xa_kevent, dev);
	XA_INIT_OLD(&dev->poll, xa_poll, dev);
	XA_INIT_WORK(&dev->reset, xa_reset);
}

void xa_event(struct xa_dev *dev)
{
	SCHEDULE_WORK(&dev->kevent);
}

void xa_stop(struct xa_dev *dev)
{
	FLUSH_SCHEDULED_WORK();
}

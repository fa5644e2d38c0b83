// SPDX-License-Identifier: GPL-2.0
/* Uses the aliases of xa_compat.h: the flush is behind one. */
#include <linux/module.h>
#include "xa_compat.h"

struct xa_dev {
	struct work_struct kevent;
	int flags;
};

static void xa_kevent(void *data)
{
	struct xa_dev *dev = data;

	dev->flags = 0;
}

void xa_open(struct xa_dev *dev)
{
	INIT_WORK(&dev->kevent, xa_kevent, dev);
}

void xa_event(struct xa_dev *dev)
{
	SCHEDULE_WORK(&dev->kevent);
}

void xa_stop(struct xa_dev *dev)
{
	FLUSH_SCHEDULED_WORK();
}

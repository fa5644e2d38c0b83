// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/kernel.h>
#include "qw_compat.h"

struct qw_dev {
	int events;
	QW_QUEUE event_task;
	QW_QUEUE reset_task;
};

static struct qw_dev qw0;

static void qw_event(void *data)
{
	struct qw_dev *qw = data;

	qw->events++;
}

static void qw_reset(void *data)
{
}

static int __init qw_init(void)
{
	QW_QUEUE_INIT(&qw0.event_task, qw_event, &qw0);
	QW_QUEUE_INIT(&qw0.reset_task,
		      qw_reset, &qw0);
	QW_SCHEDULE(&qw0.event_task);
	return 0;
}

static void __exit qw_exit(void)
{
	QW_FLUSH();
}

module_init(qw_init);
module_exit(qw_exit);

// SPDX-License-Identifier: GPL-2.0
/*
 * A task whose routine re-queues it through its data pointer stays on the
 * 2.4 API (an item): the file keeps seeing <linux/tqueue.h> after its
 * header's include of it became <linux/workqueue.h>.
 */
#include <linux/module.h>
#include <linux/init.h>
#include "kd.h"

static struct kd_dev kd;

static void kd_task(void *data)
{
	struct kd_dev *d = data;

	d->n++;
}

static void kd_tick(void *data)
{
	queue_task((struct tq_struct *)data, &tq_timer);
}

static int __init kd_init(void)
{
	static struct tq_struct tick = { routine: kd_tick };

	tick.data = &tick;
	INIT_TQUEUE(&kd.task, kd_task, &kd);
	schedule_task(&kd.task);
	queue_task(&tick, &tq_timer);
	return 0;
}

module_init(kd_init);
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * A static task whose routine re-queues it through its data pointer,
 * named priv: the task stays on the 2.4 API with the routine (its
 * conversion left the routine queue_task()ing a work_struct), while the
 * tasks initialised field by field beside it (.data = ...) convert.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include "fz24_split.h"

static struct fzt_dev fzt_dev;

static void fzt_rx_task(void *data)
{
	struct fzt_dev *dev = data;
	unsigned long flags;

	spin_lock_irqsave(&dev->lock, flags);
	dev->rx++;
	spin_unlock_irqrestore(&dev->lock, flags);
}

static void fzt_poll_task(void *data)
{
	struct fzt_dev *dev = data;

	dev->polls++;
	if (!dev->stopping)
		queue_task(&dev->poll_task, &tq_timer);
}

static void fzt_tick(void *priv)
{
	static int ticks;

	if (ticks++ < 3)
		queue_task((struct tq_struct *)priv, &tq_timer);
}

void fzt_rx_irq(struct fzt_dev *dev)
{
	queue_task(&dev->rx_task, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static int __init fzt_init(void)
{
	static struct tq_struct tick = { routine: fzt_tick };

	spin_lock_init(&fzt_dev.lock);
	INIT_LIST_HEAD(&fzt_dev.rx_task.list);
	fzt_dev.rx_task.sync = 0;
	fzt_dev.rx_task.routine = fzt_rx_task;
	fzt_dev.rx_task.data = &fzt_dev;
	INIT_LIST_HEAD(&fzt_dev.poll_task.list);
	fzt_dev.poll_task.sync = 0;
	fzt_dev.poll_task.routine = fzt_poll_task;
	fzt_dev.poll_task.data = &fzt_dev;
	tick.data = &tick;
	queue_task(&tick, &tq_timer);
	queue_task(&fzt_dev.poll_task, &tq_timer);
	fzt_rx_irq(&fzt_dev);
	schedule_task(&fzt_dev.rx_task);
	return 0;
}

static void __exit fzt_exit(void)
{
	fzt_dev.stopping = 1;
	flush_scheduled_tasks();
}

module_init(fzt_init);
module_exit(fzt_exit);
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * The .c of a 2.4 driver in two files: tasks of the header's structure
 * on tq_immediate and tq_timer, a function-local static task whose
 * routine re-queues it from its data pointer, and keventd.
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

static void fzt_tick(void *data)
{
	static int ticks;

	if (ticks++ < 3)
		queue_task((struct tq_struct *)data, &tq_timer);
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
	INIT_TQUEUE(&fzt_dev.rx_task, fzt_rx_task, &fzt_dev);
	INIT_TQUEUE(&fzt_dev.poll_task, fzt_poll_task, &fzt_dev);
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

// SPDX-License-Identifier: GPL-2.0
/* A 2.4-style driver fragment: a task scheduled from an interrupt. */
#include <linux/module.h>
#include <linux/tqueue.h>

struct fake_dev {
	int count;
	struct tq_struct task;
};

static struct fake_dev dev;

static void fake_task(void *data)
{
	struct fake_dev *d = data;

	d->count++;
}

static void fake_interrupt(void)
{
	schedule_task(&dev.task);
}

static int __init fake_init(void)
{
	INIT_TQUEUE(&dev.task, fake_task, &dev);
	fake_interrupt();
	return 0;
}

static void __exit fake_exit(void)
{
	flush_scheduled_tasks();
}

module_init(fake_init);
module_exit(fake_exit);
MODULE_LICENSE("GPL");

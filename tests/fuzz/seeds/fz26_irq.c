// SPDX-License-Identifier: GPL-2.0
/*
 * A 2.6.0-2.6.19 driver for the fuzzer whose first function (its
 * interrupt path) is the first to use the system workqueue, with one
 * call: put behind a driver macro, the file's first user of the queue is
 * the macro's (a private workqueue that stage 2 gives the file must be
 * declared above it).  A second item re-arms itself through its void *.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>

struct fz_irq_dev {
	struct work_struct bh_work;
	int events;
};

static struct fz_irq_dev fz_irq_dev;
static struct work_struct fz_poll_work;

irqreturn_t fz_irq_isr(int irq, void *dev_id)
{
	struct fz_irq_dev *dev = dev_id;

	schedule_work(&dev->bh_work);
	return IRQ_HANDLED;
}

static void fz_irq_bh(void *data)
{
	struct fz_irq_dev *dev = data;

	dev->events++;
}

static void fz_irq_poll(void *data)
{
	if (fz_irq_dev.events < 10)
		schedule_delayed_work(data, HZ);
}

static int __init fz_irq_init(void)
{
	INIT_WORK(&fz_irq_dev.bh_work, fz_irq_bh, &fz_irq_dev);
	INIT_WORK(&fz_poll_work, fz_irq_poll, &fz_poll_work);
	schedule_delayed_work(&fz_poll_work, HZ);
	return 0;
}

static void __exit fz_irq_exit(void)
{
	cancel_delayed_work(&fz_poll_work);
	flush_scheduled_work();
}

module_init(fz_irq_init);
module_exit(fz_irq_exit);
MODULE_LICENSE("GPL");

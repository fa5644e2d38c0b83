// SPDX-License-Identifier: GPL-2.0
/*
 * oldsched.c: a 2.4-style demo driver for `wqport build`: a task scheduled
 * on keventd, a header beside it, a read() that copies to a user pointer
 * without a __user annotation (2.4 had none), and the directory's old
 * Makefile.  A tq_timer routine takes the device's lock with plain
 * spin_lock(), as a bottom half could, while keventd's task takes it with
 * spin_lock_bh() and a kernel timer (softirq context, now as in 2.4) with
 * spin_lock(): as a work item the routine needs spin_lock_bh(), which
 * stage 1 writes (lockdep tells the difference on the debug kernel).
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include "oldsched.h"

#define OLDSCHED_TICKS	5

struct oldsched_dev oldsched;
static struct timer_list oldsched_timer;

static void oldsched_task(void *data)
{
	struct oldsched_dev *dev = data;

	spin_lock_bh(&dev->lock);
	oldsched_hw_poll(dev);
	spin_unlock_bh(&dev->lock);
}

static void oldsched_tick(void *data)
{
	struct oldsched_dev *dev = data;
	int again;

	spin_lock(&dev->lock);
	again = ++dev->ticks < OLDSCHED_TICKS && !dev->stopping;
	spin_unlock(&dev->lock);
	if (again)
		queue_task(&dev->tick_tq, &tq_timer);
	else
		complete(&dev->ticked);
}

/* the driver's timer (already on today's timer API: its owner's job) */
static void oldsched_timeout(struct timer_list *t)
{
	spin_lock(&oldsched.lock);
	oldsched.timeouts++;
	spin_unlock(&oldsched.lock);
}

static ssize_t oldsched_read(struct file *file, char *buf, size_t count,
			     loff_t *ppos)
{
	size_t n = strnlen(oldsched.last, sizeof(oldsched.last));

	schedule_task(&oldsched.tq);
	if (count < n)
		n = count;
	if (copy_to_user(buf, oldsched.last, n))
		return -EFAULT;
	return n;
}

static struct file_operations oldsched_fops = {
	owner:	THIS_MODULE,
	read:	oldsched_read,
};

static struct miscdevice oldsched_misc = {
	minor:	MISC_DYNAMIC_MINOR,
	name:	"oldsched",
	fops:	&oldsched_fops,
};

static int __init oldsched_init(void)
{
	spin_lock_init(&oldsched.lock);
	init_completion(&oldsched.ticked);
	timer_setup(&oldsched_timer, oldsched_timeout, 0);
	mod_timer(&oldsched_timer, jiffies + 1);
	INIT_TQUEUE(&oldsched.tq, oldsched_task, &oldsched);
	INIT_TQUEUE(&oldsched.tick_tq, oldsched_tick, &oldsched);
	schedule_task(&oldsched.tq);
	queue_task(&oldsched.tick_tq, &tq_timer);
	return misc_register(&oldsched_misc);
}

static void __exit oldsched_exit(void)
{
	misc_deregister(&oldsched_misc);
	spin_lock_bh(&oldsched.lock);
	oldsched.stopping = 1;
	spin_unlock_bh(&oldsched.lock);
	wait_for_completion(&oldsched.ticked);
	del_timer_sync(&oldsched_timer);
	flush_scheduled_tasks();
}

module_init(oldsched_init);
module_exit(oldsched_exit);
MODULE_LICENSE("GPL");

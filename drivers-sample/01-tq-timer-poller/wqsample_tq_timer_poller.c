// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_tq_timer_poller: a 2.4 driver that polls its (imaginary) device
 * from tq_timer.
 *
 * The 2.4 idiom: a device without a usable interrupt is polled once per
 * clock tick by a task that requeues itself on tq_timer until it has no more
 * to do.  tq_timer ran from the timer bottom half on the next tick, so every
 * run of the task happens on a later jiffy than the one before.
 *
 * Only the deferred-work code is 2.4; everything else is the 6.1 API.
 *
 * debugfs, /sys/kernel/debug/wqsample/tq_timer_poller/:
 *   ctl    write "start N": poll N times (1..100), then stop
 *   state  "idle", "polling" or "done"
 *   log    the event log
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>

#include "wqsample_log.h"

#define POLLER_NAME		"tq_timer_poller"
#define POLLER_MAX_POLLS	100

enum poller_state { POLLER_IDLE, POLLER_POLLING, POLLER_DONE };

static const char * const poller_state_name[] = {
	[POLLER_IDLE]		= "idle",
	[POLLER_POLLING]	= "polling",
	[POLLER_DONE]		= "done",
};

struct poller_dev {
	struct tq_struct poll_task;	/* requeues itself on tq_timer */
	spinlock_t lock;		/* protects everything below */
	enum poller_state state;
	int stopping;			/* module exit: do not requeue */
	int polls;			/* polls done in this run */
	int target;			/* polls wanted in this run */
	unsigned long last_poll;	/* jiffies of the previous poll */
	int same_jiffy;			/* polls that ran on the previous one's jiffy */
	struct completion stopped;	/* the last poll of a run is over */
};

static struct poller_dev poller;
static struct wqsample_log poller_log;
static struct dentry *poller_dir;

/* The task: runs from tq_timer, once per tick, until it has polled enough. */
static void poller_poll(void *data)
{
	struct poller_dev *dev = data;
	unsigned long now = jiffies;
	unsigned long flags;
	int poll, again, same_jiffy;

	spin_lock_irqsave(&dev->lock, flags);
	poll = ++dev->polls;
	if (poll > 1 && !time_after(now, dev->last_poll))
		dev->same_jiffy++;
	dev->last_poll = now;
	again = poll < dev->target && !dev->stopping;
	same_jiffy = dev->same_jiffy;
	spin_unlock_irqrestore(&dev->lock, flags);

	wqsample_log(&poller_log, "poll %d", poll);
	if (again) {
		/* Requeue on tq_timer: run again on the next tick. */
		if (!queue_task(&dev->poll_task, &tq_timer))
			wqsample_log(&poller_log, "poll %d: requeue refused", poll);
		return;
	}

	wqsample_log(&poller_log, "done after %d polls", poll);
	wqsample_log(&poller_log, "every poll on a later jiffy than the one before: %s",
		     same_jiffy ? "no" : "yes");

	/* Only now, so that a reader who sees "done" sees the whole log. */
	spin_lock_irqsave(&dev->lock, flags);
	dev->state = POLLER_DONE;
	spin_unlock_irqrestore(&dev->lock, flags);
	complete(&dev->stopped);
}

static int poller_start(struct poller_dev *dev, int target)
{
	unsigned long flags;
	int queued;

	if (target < 1 || target > POLLER_MAX_POLLS)
		return -EINVAL;

	spin_lock_irqsave(&dev->lock, flags);
	if (dev->state == POLLER_POLLING || dev->stopping) {
		spin_unlock_irqrestore(&dev->lock, flags);
		return -EBUSY;
	}
	dev->state = POLLER_POLLING;
	dev->polls = 0;
	dev->same_jiffy = 0;
	dev->target = target;
	reinit_completion(&dev->stopped);
	wqsample_log(&poller_log, "start: %d polls", target);
	/*
	 * Queued under the lock (queue_task never sleeps), so that the first
	 * poll, which takes the lock, logs after this.
	 */
	queued = queue_task(&dev->poll_task, &tq_timer);
	wqsample_log(&poller_log, "start: queue_task returned %d", queued);
	spin_unlock_irqrestore(&dev->lock, flags);
	return 0;
}

static ssize_t poller_ctl_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[32];
	int target, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	if (sscanf(buf, "start %d", &target) != 1)
		return -EINVAL;
	ret = poller_start(&poller, target);
	return ret ? ret : count;
}

static ssize_t poller_state_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	enum poller_state state;
	unsigned long flags;
	char buf[16];
	int len;

	spin_lock_irqsave(&poller.lock, flags);
	state = poller.state;
	spin_unlock_irqrestore(&poller.lock, flags);

	len = scnprintf(buf, sizeof(buf), "%s\n", poller_state_name[state]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations poller_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= poller_ctl_write,
	.llseek	= noop_llseek,
};

static const struct file_operations poller_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= poller_state_read,
	.llseek	= default_llseek,
};

static int __init poller_init(void)
{
	spin_lock_init(&poller.lock);
	init_completion(&poller.stopped);
	poller.state = POLLER_IDLE;
	INIT_TQUEUE(&poller.poll_task, poller_poll, &poller);

	wqsample_log_init(&poller_log);
	poller_dir = wqsample_debugfs_create(POLLER_NAME, &poller_log);
	debugfs_create_file("ctl", 0200, poller_dir, NULL, &poller_ctl_fops);
	debugfs_create_file("state", 0444, poller_dir, NULL, &poller_state_fops);
	return 0;
}

static void __exit poller_exit(void)
{
	unsigned long flags;
	int polling;

	wqsample_debugfs_remove(poller_dir);

	/* Stop requeueing, then wait for the poll in flight to finish. */
	spin_lock_irqsave(&poller.lock, flags);
	poller.stopping = 1;
	polling = poller.state == POLLER_POLLING;
	spin_unlock_irqrestore(&poller.lock, flags);
	if (polling)
		wait_for_completion(&poller.stopped);
}

module_init(poller_init);
module_exit(poller_exit);

MODULE_DESCRIPTION("wqport sample 1: a poller that requeues itself on tq_timer");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

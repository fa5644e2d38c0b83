// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_schedule_task: a 2.4 driver that hands work which may sleep from
 * its interrupt handler to keventd with schedule_task().
 *
 * The 2.4 idiom: the interrupt handler counts what the device raised and
 * calls schedule_task(); the task, run by keventd in process context, may
 * sleep (here it does, as a driver waiting for a slow device would) and
 * handles everything raised so far.  schedule_task() returns 0 when the
 * task is already queued: the queued run will see the new event too, so
 * nothing is lost.  On unload the driver stops its interrupt source and
 * calls flush_scheduled_tasks().
 *
 * The "interrupt" is a hard-IRQ hrtimer.  Only the deferred-work code is
 * 2.4; everything else is the 6.1 API.
 *
 * debugfs, /sys/kernel/debug/wqsample/schedule_task/:
 *   ctl    "raise N": raise N interrupts (1..1000), one every 200 us
 *          "flush":   flush_scheduled_tasks(), then check everything raised
 *                     was handled
 *   state  "idle", "raising" or "raised" (every interrupt of the burst fired)
 *   log    the event log
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>

#include "wqsample_irq.h"
#include "wqsample_log.h"

#define EVDEV_NAME		"schedule_task"
#define EVDEV_MAX_RAISE		1000
#define EVDEV_IRQ_PERIOD_NS	(200 * NSEC_PER_USEC)

enum evdev_state { EVDEV_IDLE, EVDEV_RAISING, EVDEV_RAISED };

static const char * const evdev_state_name[] = {
	[EVDEV_IDLE]	= "idle",
	[EVDEV_RAISING]	= "raising",
	[EVDEV_RAISED]	= "raised",
};

struct evdev {
	struct tq_struct bh_task;	/* given to keventd */
	struct hrtimer irq;		/* the device's interrupt */
	spinlock_t lock;		/* protects everything below */
	enum evdev_state state;
	int to_raise;			/* interrupts left in this burst */
	int raised;			/* events raised by the interrupt */
	int handled;			/* events handled by the task */
	int irq_not_hardirq;		/* interrupts not in hard-IRQ context */
	int task_in_atomic;		/* task runs not in process context */
	int task_runs;			/* task runs (timing-dependent, not logged) */
	atomic_t task_running;		/* task runs in progress */
	int task_overlap;		/* a task run found another one running */
};

static struct evdev evdev;
static struct wqsample_log evdev_log;
static struct dentry *evdev_dir;

/* The task: keventd, process context; may sleep. */
static void evdev_task(void *data)
{
	struct evdev *dev = data;
	unsigned long flags;
	int not_process;

	if (atomic_inc_return(&dev->task_running) != 1)
		dev->task_overlap = 1;
	not_process = !in_task() || irqs_disabled() || in_atomic();

	/* Talk to the slow device. */
	msleep(1);

	spin_lock_irqsave(&dev->lock, flags);
	dev->task_runs++;
	if (not_process)
		dev->task_in_atomic++;
	dev->handled = dev->raised;
	spin_unlock_irqrestore(&dev->lock, flags);
	atomic_dec(&dev->task_running);
}

/* The interrupt handler: hard-IRQ context. */
static enum hrtimer_restart evdev_irq(struct hrtimer *timer)
{
	struct evdev *dev = container_of(timer, struct evdev, irq);
	enum hrtimer_restart ret = HRTIMER_RESTART;

	wqsample_irq_enter();

	spin_lock(&dev->lock);
	if (!in_hardirq())
		dev->irq_not_hardirq++;
	dev->raised++;
	/*
	 * Under the lock, so that whoever sees "raised" knows that every
	 * schedule_task() of the burst has been called.  It never sleeps.
	 */
	schedule_task(&dev->bh_task);
	if (--dev->to_raise == 0) {
		dev->state = EVDEV_RAISED;
		ret = HRTIMER_NORESTART;
	}
	spin_unlock(&dev->lock);

	if (ret == HRTIMER_RESTART)
		hrtimer_forward_now(timer, ns_to_ktime(EVDEV_IRQ_PERIOD_NS));
	return ret;
}

static int evdev_raise(struct evdev *dev, int n)
{
	unsigned long flags;

	if (n < 1 || n > EVDEV_MAX_RAISE)
		return -EINVAL;
	spin_lock_irqsave(&dev->lock, flags);
	if (dev->state == EVDEV_RAISING) {
		spin_unlock_irqrestore(&dev->lock, flags);
		return -EBUSY;
	}
	dev->state = EVDEV_RAISING;
	dev->to_raise = n;
	spin_unlock_irqrestore(&dev->lock, flags);

	wqsample_log(&evdev_log, "raise: %d interrupts", n);
	hrtimer_start(&dev->irq, ns_to_ktime(EVDEV_IRQ_PERIOD_NS),
		      HRTIMER_MODE_REL_HARD);
	return 0;
}

static void evdev_log_counts(struct evdev *dev, const char *when)
{
	int raised, handled, not_hardirq, in_atomic, overlap;
	unsigned long flags;

	spin_lock_irqsave(&dev->lock, flags);
	raised = dev->raised;
	handled = dev->handled;
	not_hardirq = dev->irq_not_hardirq;
	in_atomic = dev->task_in_atomic;
	overlap = dev->task_overlap;
	spin_unlock_irqrestore(&dev->lock, flags);

	wqsample_log(&evdev_log, "%s: raised %d, handled %d", when, raised, handled);
	wqsample_log(&evdev_log, "%s: every interrupt in hard-IRQ context: %s",
		     when, not_hardirq ? "no" : "yes");
	wqsample_log(&evdev_log, "%s: task always in process context, slept: %s",
		     when, in_atomic ? "no" : "yes");
	wqsample_log(&evdev_log, "%s: task runs never overlapped: %s",
		     when, overlap ? "no" : "yes");
}

static int evdev_flush(struct evdev *dev)
{
	unsigned long flags;
	int raising;

	spin_lock_irqsave(&dev->lock, flags);
	raising = dev->state == EVDEV_RAISING;
	spin_unlock_irqrestore(&dev->lock, flags);
	if (raising)
		return -EBUSY;

	/* Every schedule_task() of the burst came before this call. */
	flush_scheduled_tasks();
	evdev_log_counts(dev, "flush");
	return 0;
}

static ssize_t evdev_ctl_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[32];
	int n, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	if (sscanf(buf, "raise %d", &n) == 1)
		ret = evdev_raise(&evdev, n);
	else if (sysfs_streq(buf, "flush"))
		ret = evdev_flush(&evdev);
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static ssize_t evdev_state_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	enum evdev_state state;
	unsigned long flags;
	char buf[16];
	int len;

	spin_lock_irqsave(&evdev.lock, flags);
	state = evdev.state;
	spin_unlock_irqrestore(&evdev.lock, flags);

	len = scnprintf(buf, sizeof(buf), "%s\n", evdev_state_name[state]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations evdev_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= evdev_ctl_write,
	.llseek	= noop_llseek,
};

static const struct file_operations evdev_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= evdev_state_read,
	.llseek	= default_llseek,
};

static int __init evdev_init(void)
{
	spin_lock_init(&evdev.lock);
	atomic_set(&evdev.task_running, 0);
	evdev.state = EVDEV_IDLE;
	INIT_TQUEUE(&evdev.bh_task, evdev_task, &evdev);
	hrtimer_init(&evdev.irq, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	evdev.irq.function = evdev_irq;

	wqsample_log_init(&evdev_log);
	evdev_dir = wqsample_debugfs_create(EVDEV_NAME, &evdev_log);
	debugfs_create_file("ctl", 0200, evdev_dir, NULL, &evdev_ctl_fops);
	debugfs_create_file("state", 0444, evdev_dir, NULL, &evdev_state_fops);
	return 0;
}

static void __exit evdev_exit(void)
{
	int raised, handled;

	wqsample_debugfs_remove(evdev_dir);

	/* "free_irq", then wait for the task it may have scheduled. */
	hrtimer_cancel(&evdev.irq);
	flush_scheduled_tasks();

	/* Nothing runs any more: no lock needed. */
	raised = evdev.raised;
	handled = evdev.handled;
	pr_info("wqsample_schedule_task: exit: every raised event handled: %s\n",
		raised == handled ? "yes" : "no");
}

module_init(evdev_init);
module_exit(evdev_exit);

MODULE_DESCRIPTION("wqport sample 2: schedule_task from an interrupt, flush on unload");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

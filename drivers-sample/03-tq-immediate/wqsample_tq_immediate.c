// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_tq_immediate: a 2.4 receiver whose interrupt handler leaves the
 * work to tq_immediate.
 *
 * The 2.4 idiom: the interrupt handler takes the byte off the device into a
 * small ring, then
 *
 *	queue_task(&dev->rx_task, &tq_immediate);
 *	mark_bh(IMMEDIATE_BH);
 *
 * and the task, run from the immediate bottom half as soon as the interrupt
 * returns, empties the ring into the line discipline.  queue_task() returns
 * 0 while the task is queued; the queued run empties the ring, so no byte is
 * lost.  Here the "device" delivers a string one byte per interrupt (a
 * hard-IRQ hrtimer), and the task assembles the bytes into lines.
 *
 * Only the deferred-work code is 2.4; everything else is the 6.1 API.
 *
 * debugfs, /sys/kernel/debug/wqsample/tq_immediate/:
 *   ctl    "send TEXT": the device receives TEXT (up to 60 bytes), one
 *          byte per interrupt; a newline ends a line
 *   state  "idle", "receiving" or "done" (every byte handled)
 *   log    the event log
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>

#include "wqsample_irq.h"
#include "wqsample_log.h"

#define RX_NAME			"tq_immediate"
#define RX_MAX_TEXT		60
#define RX_RING_SIZE		64	/* power of two, > RX_MAX_TEXT: no overrun */
#define RX_IRQ_PERIOD_NS	(100 * NSEC_PER_USEC)

enum rx_state { RX_IDLE, RX_RECEIVING, RX_DONE };

static const char * const rx_state_name[] = {
	[RX_IDLE]	= "idle",
	[RX_RECEIVING]	= "receiving",
	[RX_DONE]	= "done",
};

struct rx_dev {
	struct tq_struct rx_task;	/* queued on tq_immediate */
	struct hrtimer irq;		/* the device's receive interrupt */
	spinlock_t lock;		/* protects everything below */
	enum rx_state state;
	/* the wire: what the device still has to deliver */
	char wire[RX_MAX_TEXT + 1];
	int wire_len, wire_pos;
	/* the ring between interrupt and task */
	unsigned char ring[RX_RING_SIZE];
	unsigned int ring_head, ring_tail;
	int overruns;
	/* the line discipline */
	char line[RX_MAX_TEXT + 1];
	int line_len;
	int handled;
	int logged;			/* the end of the text was logged */
	/* queue_task() calls that queued, task runs that finished */
	int tasks_queued, tasks_run;
};

static struct rx_dev rx;
static struct wqsample_log rx_log;
static struct dentry *rx_dir;

/* Called with dev->lock held. */
static void rx_line_flush(struct rx_dev *dev)
{
	dev->line[dev->line_len] = '\0';
	wqsample_log(&rx_log, "line: %s", dev->line);
	dev->line_len = 0;
}

/* The task: runs from the immediate bottom half. */
static void rx_do_task(void *data)
{
	struct rx_dev *dev = data;
	unsigned long flags;
	unsigned char c;

	spin_lock_irqsave(&dev->lock, flags);
	while (dev->ring_tail != dev->ring_head) {
		c = dev->ring[dev->ring_tail++ & (RX_RING_SIZE - 1)];
		dev->handled++;
		if (c == '\n')
			rx_line_flush(dev);
		else
			dev->line[dev->line_len++] = c;
	}
	if (dev->state == RX_RECEIVING && !dev->logged &&
	    dev->handled + dev->overruns == dev->wire_len) {
		if (dev->line_len)
			rx_line_flush(dev);
		wqsample_log(&rx_log, "handled %d bytes, %d overruns",
			     dev->handled, dev->overruns);
		dev->logged = 1;
	}
	/* Last: the task is done with the device once this is seen. */
	dev->tasks_run++;
	spin_unlock_irqrestore(&dev->lock, flags);
}

/* The receive interrupt: hard-IRQ context, one byte per interrupt. */
static enum hrtimer_restart rx_irq(struct hrtimer *timer)
{
	struct rx_dev *dev = container_of(timer, struct rx_dev, irq);
	enum hrtimer_restart ret = HRTIMER_RESTART;

	wqsample_irq_enter();

	spin_lock(&dev->lock);
	if (dev->ring_head - dev->ring_tail < RX_RING_SIZE)
		dev->ring[dev->ring_head++ & (RX_RING_SIZE - 1)] =
			dev->wire[dev->wire_pos];
	else
		dev->overruns++;	/* the byte is lost, as on a real UART */
	if (++dev->wire_pos == dev->wire_len)
		ret = HRTIMER_NORESTART;
	/*
	 * Queued under the lock (neither call sleeps), so that the count of
	 * queued runs is exact when the task looks at it.
	 */
	if (queue_task(&dev->rx_task, &tq_immediate))
		dev->tasks_queued++;
	mark_bh(IMMEDIATE_BH);
	spin_unlock(&dev->lock);

	if (ret == HRTIMER_RESTART)
		hrtimer_forward_now(timer, ns_to_ktime(RX_IRQ_PERIOD_NS));
	return ret;
}

static int rx_send(struct rx_dev *dev, const char *text)
{
	size_t len = strlen(text);
	unsigned long flags;

	if (len == 0 || len > RX_MAX_TEXT)
		return -EINVAL;
	spin_lock_irqsave(&dev->lock, flags);
	if (dev->state == RX_RECEIVING) {
		spin_unlock_irqrestore(&dev->lock, flags);
		return -EBUSY;
	}
	dev->state = RX_RECEIVING;
	memcpy(dev->wire, text, len);
	dev->wire_len = len;
	dev->wire_pos = 0;
	dev->handled = 0;
	dev->overruns = 0;
	dev->logged = 0;
	wqsample_log(&rx_log, "send: %zu bytes", len);
	spin_unlock_irqrestore(&dev->lock, flags);

	hrtimer_start(&dev->irq, ns_to_ktime(RX_IRQ_PERIOD_NS),
		      HRTIMER_MODE_REL_HARD);
	return 0;
}

static ssize_t rx_ctl_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[RX_MAX_TEXT + 8];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* echo's newline ends the command, not the text */
	if (count && buf[count - 1] == '\n')
		buf[count - 1] = '\0';

	if (strncmp(buf, "send ", 5))
		return -EINVAL;
	ret = rx_send(&rx, buf + 5);
	return ret ? ret : count;
}

static ssize_t rx_state_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	enum rx_state state;
	unsigned long flags;
	char buf[16];
	int len;

	/* "done": the text was handled and logged, and no run is queued. */
	spin_lock_irqsave(&rx.lock, flags);
	if (rx.state == RX_RECEIVING && rx.logged &&
	    rx.tasks_run == rx.tasks_queued)
		rx.state = RX_DONE;
	state = rx.state;
	spin_unlock_irqrestore(&rx.lock, flags);

	len = scnprintf(buf, sizeof(buf), "%s\n", rx_state_name[state]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations rx_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= rx_ctl_write,
	.llseek	= noop_llseek,
};

static const struct file_operations rx_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= rx_state_read,
	.llseek	= default_llseek,
};

static int __init rx_init(void)
{
	spin_lock_init(&rx.lock);
	rx.state = RX_IDLE;
	INIT_TQUEUE(&rx.rx_task, rx_do_task, &rx);
	hrtimer_init(&rx.irq, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	rx.irq.function = rx_irq;

	wqsample_log_init(&rx_log);
	rx_dir = wqsample_debugfs_create(RX_NAME, &rx_log);
	debugfs_create_file("ctl", 0200, rx_dir, NULL, &rx_ctl_fops);
	debugfs_create_file("state", 0444, rx_dir, NULL, &rx_state_fops);
	return 0;
}

static void __exit rx_exit(void)
{
	unsigned long flags;
	int busy;

	wqsample_debugfs_remove(rx_dir);
	hrtimer_cancel(&rx.irq);

	/*
	 * 2.4 gave no way to wait for tq_immediate.  The scenario waits for
	 * "done" before it unloads; otherwise say so (the shim takes a task
	 * left queued off tq_immediate and warns).
	 */
	spin_lock_irqsave(&rx.lock, flags);
	busy = rx.tasks_run != rx.tasks_queued;
	spin_unlock_irqrestore(&rx.lock, flags);
	if (busy)
		pr_warn("wqsample_tq_immediate: unloaded with its task queued\n");
}

module_init(rx_init);
module_exit(rx_exit);

MODULE_DESCRIPTION("wqport sample 3: tq_immediate and mark_bh(IMMEDIATE_BH) from an interrupt");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

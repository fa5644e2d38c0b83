// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_fake_serial: a 2.4-style serial port in loopback, with a /dev node.
 *
 * The 2.4 idiom is the tty flip buffer (drivers/char/tty_io.c,
 * include/linux/tty_flip.h): the receive interrupt puts each byte into the
 * flip buffer, and tty_flip_buffer_push() hands the buffer to the line
 * discipline later, from a task on tq_timer:
 *
 *	queue_task(&tty->flip.tqueue, &tq_timer);
 *
 * Here user space writes to /dev/wqsample_serial; the "UART" (a hard-IRQ
 * hrtimer) sends one byte per interrupt and, in loopback, receives it into
 * the flip buffer and pushes it; the flip task moves the bytes into the read
 * buffer and wakes readers; user space reads them back.  Only the
 * deferred-work code is 2.4; the device is a 6.1 misc device.
 *
 * /dev/wqsample_serial: write queues bytes for transmission (up to
 * SER_BUF_SIZE pending), read returns received bytes (blocks while there are
 * none, unless O_NONBLOCK).
 * debugfs, /sys/kernel/debug/wqsample/fake_serial/:
 *   state  "rx N" once every written byte is in the read buffer (N bytes
 *          there) and no flip task is queued, else "busy"
 *   log    the event log
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "wqsample_irq.h"
#include "wqsample_log.h"

#define SER_NAME		"fake_serial"
#define SER_BUF_SIZE		256
#define SER_IRQ_PERIOD_NS	(100 * NSEC_PER_USEC)

/* A byte FIFO; the port's lock protects it. */
struct ser_fifo {
	unsigned char buf[SER_BUF_SIZE];
	int head, len;
};

static int ser_fifo_put(struct ser_fifo *f, unsigned char c)
{
	if (f->len == SER_BUF_SIZE)
		return 0;
	f->buf[(f->head + f->len++) % SER_BUF_SIZE] = c;
	return 1;
}

static unsigned char ser_fifo_get(struct ser_fifo *f)
{
	unsigned char c = f->buf[f->head];

	f->head = (f->head + 1) % SER_BUF_SIZE;
	f->len--;
	return c;
}

struct ser_port {
	spinlock_t lock;		/* protects everything below */
	struct ser_fifo xmit;		/* written, not yet sent */
	struct ser_fifo flip;		/* received, not yet pushed */
	struct ser_fifo rx;		/* pushed, ready for read() */
	int overruns;			/* bytes the flip buffer dropped */
	struct tq_struct flip_tqueue;	/* the flip task, on tq_timer */
	int flip_queued, flip_run;	/* queue_task()s that queued, runs */
	int irq_running;
	struct hrtimer irq;
	wait_queue_head_t read_wait;	/* readers; and exit, for the flip task */
	struct mutex read_mutex;	/* one reader at a time */
};

static struct ser_port ser;
static struct wqsample_log ser_log;
static struct dentry *ser_dir;

/* The flip task, from tq_timer: hand the flip buffer to the reader. */
static void ser_flip_buffer_push(void *private)
{
	struct ser_port *port = private;
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	while (port->flip.len && port->rx.len < SER_BUF_SIZE)
		ser_fifo_put(&port->rx, ser_fifo_get(&port->flip));
	port->flip_run++;
	spin_unlock_irqrestore(&port->lock, flags);
	wake_up_interruptible(&port->read_wait);
}

/* The UART interrupt, hard-IRQ context: send one byte, receive it back. */
static enum hrtimer_restart ser_interrupt(struct hrtimer *timer)
{
	struct ser_port *port = container_of(timer, struct ser_port, irq);
	enum hrtimer_restart ret = HRTIMER_RESTART;

	wqsample_irq_enter();

	spin_lock(&port->lock);
	if (!ser_fifo_put(&port->flip, ser_fifo_get(&port->xmit)))
		port->overruns++;
	/* tty_flip_buffer_push() */
	if (queue_task(&port->flip_tqueue, &tq_timer))
		port->flip_queued++;
	if (!port->xmit.len) {
		port->irq_running = 0;
		ret = HRTIMER_NORESTART;
	}
	spin_unlock(&port->lock);

	if (ret == HRTIMER_RESTART)
		hrtimer_forward_now(timer, ns_to_ktime(SER_IRQ_PERIOD_NS));
	return ret;
}

static ssize_t ser_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	unsigned char buf[SER_BUF_SIZE];
	unsigned long flags;
	int i, start;

	if (count > SER_BUF_SIZE)
		count = SER_BUF_SIZE;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;

	spin_lock_irqsave(&ser.lock, flags);
	if (ser.xmit.len + count > SER_BUF_SIZE) {
		spin_unlock_irqrestore(&ser.lock, flags);
		return -EAGAIN;
	}
	for (i = 0; i < count; i++)
		ser_fifo_put(&ser.xmit, buf[i]);
	start = !ser.irq_running;
	ser.irq_running = 1;
	wqsample_log(&ser_log, "write: %zu bytes", count);
	spin_unlock_irqrestore(&ser.lock, flags);

	if (start)
		hrtimer_start(&ser.irq, ns_to_ktime(SER_IRQ_PERIOD_NS),
			      HRTIMER_MODE_REL_HARD);
	return count;
}

static int ser_rx_avail(struct ser_port *port)
{
	unsigned long flags;
	int len;

	spin_lock_irqsave(&port->lock, flags);
	len = port->rx.len;
	spin_unlock_irqrestore(&port->lock, flags);
	return len;
}

static ssize_t ser_read(struct file *file, char __user *ubuf,
			size_t count, loff_t *ppos)
{
	unsigned char buf[SER_BUF_SIZE];
	unsigned long flags;
	int i, n, ret;

	if (count > SER_BUF_SIZE)
		count = SER_BUF_SIZE;
	if (!count)
		return 0;
	if (mutex_lock_interruptible(&ser.read_mutex))
		return -ERESTARTSYS;
	if (file->f_flags & O_NONBLOCK) {
		ret = ser_rx_avail(&ser) ? 0 : -EAGAIN;
	} else {
		ret = wait_event_interruptible(ser.read_wait,
					       ser_rx_avail(&ser) > 0);
	}
	if (ret)
		goto out;

	spin_lock_irqsave(&ser.lock, flags);
	n = min_t(int, count, ser.rx.len);
	for (i = 0; i < n; i++)
		buf[i] = ser_fifo_get(&ser.rx);
	spin_unlock_irqrestore(&ser.lock, flags);

	wqsample_log(&ser_log, "read: %d bytes", n);
	ret = copy_to_user(ubuf, buf, n) ? -EFAULT : n;
out:
	mutex_unlock(&ser.read_mutex);
	return ret;
}

static const struct file_operations ser_fops = {
	.owner	= THIS_MODULE,
	.open	= nonseekable_open,
	.read	= ser_read,
	.write	= ser_write,
};

static struct miscdevice ser_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "wqsample_serial",
	.fops	= &ser_fops,
	.mode	= 0666,
};

/* Every written byte pushed, and no flip task queued. */
static int ser_quiet(struct ser_port *port)
{
	unsigned long flags;
	int quiet;

	spin_lock_irqsave(&port->lock, flags);
	quiet = !port->irq_running && !port->xmit.len && !port->flip.len &&
		port->flip_run == port->flip_queued;
	spin_unlock_irqrestore(&port->lock, flags);
	return quiet;
}

static ssize_t ser_state_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[32];
	int len;

	if (ser_quiet(&ser))
		len = scnprintf(buf, sizeof(buf), "rx %d\n", ser_rx_avail(&ser));
	else
		len = scnprintf(buf, sizeof(buf), "busy\n");
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations ser_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= ser_state_read,
	.llseek	= default_llseek,
};

static int __init ser_init(void)
{
	int ret;

	spin_lock_init(&ser.lock);
	init_waitqueue_head(&ser.read_wait);
	mutex_init(&ser.read_mutex);
	INIT_TQUEUE(&ser.flip_tqueue, ser_flip_buffer_push, &ser);
	hrtimer_init(&ser.irq, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	ser.irq.function = ser_interrupt;

	wqsample_log_init(&ser_log);
	ser_dir = wqsample_debugfs_create(SER_NAME, &ser_log);
	debugfs_create_file("state", 0444, ser_dir, NULL, &ser_state_fops);

	ret = misc_register(&ser_misc);
	if (ret)
		wqsample_debugfs_remove(ser_dir);
	return ret;
}

/* No flip task queued: the last one pushed whatever the interrupt left. */
static int ser_flip_idle(struct ser_port *port)
{
	unsigned long flags;
	int idle;

	spin_lock_irqsave(&port->lock, flags);
	idle = port->flip_run == port->flip_queued;
	spin_unlock_irqrestore(&port->lock, flags);
	return idle;
}

static void __exit ser_exit(void)
{
	misc_deregister(&ser_misc);
	wqsample_debugfs_remove(ser_dir);
	hrtimer_cancel(&ser.irq);
	/* The flip task wakes read_wait each time it ran. */
	wait_event(ser.read_wait, ser_flip_idle(&ser));
}

module_init(ser_init);
module_exit(ser_exit);

MODULE_DESCRIPTION("wqport sample 7: a fake serial port, tty flip buffer on tq_timer");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_custom_bh: a 2.4 two-port serial driver with its own bottom half.
 *
 * The 2.4 idiom (drivers/char/serial.c and its relatives): the driver owns
 * a bottom-half number and a private task queue,
 *
 *	static DECLARE_TASK_QUEUE(tq_serial);
 *	static void do_serial_bh(void) { run_task_queue(&tq_serial); }
 *	init_bh(SERIAL_BH, do_serial_bh);		at init
 *	remove_bh(SERIAL_BH);				at exit
 *
 * and the interrupt handler queues the port's task and marks the bottom half:
 *
 *	queue_task(&info->tqueue, &tq_serial);
 *	mark_bh(SERIAL_BH);
 *
 * Each port's task empties the port's receive ring.  2.4 ran every bottom
 * half under one global lock, so do_serial_bh never ran twice at once, and
 * neither did a port's task.  The "interrupt" is a hard-IRQ hrtimer that
 * delivers one byte to each port that has one left.  Only the deferred-work
 * code is 2.4; the rest is 6.1.
 *
 * debugfs, /sys/kernel/debug/wqsample/custom_bh/:
 *   ctl    "send A B": port 0 receives A, port 1 receives B (up to 60 bytes
 *          each, no blanks), one byte per port per interrupt
 *          "report":   log what each port received
 *   state  "idle", "receiving" or "done"
 *   log    the event log
 */
#include <linux/atomic.h>
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

#define SBH_NAME		"custom_bh"
#define SBH_PORTS		2
#define SBH_MAX_TEXT		60
#define SBH_RING_SIZE		64	/* power of two, > SBH_MAX_TEXT */
#define SBH_IRQ_PERIOD_NS	(100 * NSEC_PER_USEC)

enum sbh_state { SBH_IDLE, SBH_RECEIVING, SBH_DONE };

static const char * const sbh_state_name[] = {
	[SBH_IDLE]	= "idle",
	[SBH_RECEIVING]	= "receiving",
	[SBH_DONE]	= "done",
};

struct sbh_port {
	int line;
	struct tq_struct tqueue;	/* queued on tq_serial */
	char wire[SBH_MAX_TEXT + 1];	/* still to arrive */
	int wire_len, wire_pos;
	unsigned char ring[SBH_RING_SIZE];
	unsigned int ring_head, ring_tail;
	char rx[SBH_MAX_TEXT + 1];	/* what the task took off the ring */
	int rx_len;
	atomic_t in_task;		/* the task is running */
};

static struct sbh_port sbh_ports[SBH_PORTS];
static DEFINE_SPINLOCK(sbh_lock);	/* protects the ports and the counts */
static enum sbh_state sbh_state;
static int sbh_tasks_queued, sbh_tasks_run;
static int sbh_task_overlap;		/* a port's task ran twice at once */
static struct hrtimer sbh_irq;
static struct wqsample_log sbh_log;
static struct dentry *sbh_dir;

static DECLARE_TASK_QUEUE(tq_serial);

/* A port's task: run from SERIAL_BH. */
static void sbh_do_softint(void *private)
{
	struct sbh_port *info = private;
	unsigned long flags;

	if (atomic_inc_return(&info->in_task) != 1)
		sbh_task_overlap = 1;
	spin_lock_irqsave(&sbh_lock, flags);
	while (info->ring_tail != info->ring_head)
		info->rx[info->rx_len++] =
			info->ring[info->ring_tail++ & (SBH_RING_SIZE - 1)];
	sbh_tasks_run++;
	spin_unlock_irqrestore(&sbh_lock, flags);
	atomic_dec(&info->in_task);
}

/* The driver's bottom half. */
static void do_serial_bh(void)
{
	run_task_queue(&tq_serial);
}

/* The interrupt handler: hard-IRQ context. */
static enum hrtimer_restart sbh_interrupt(struct hrtimer *timer)
{
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	struct sbh_port *info;
	int i;

	wqsample_irq_enter();

	spin_lock(&sbh_lock);
	for (i = 0; i < SBH_PORTS; i++) {
		info = &sbh_ports[i];
		if (info->wire_pos == info->wire_len)
			continue;
		info->ring[info->ring_head++ & (SBH_RING_SIZE - 1)] =
			info->wire[info->wire_pos++];
		if (info->wire_pos < info->wire_len)
			ret = HRTIMER_RESTART;
		if (queue_task(&info->tqueue, &tq_serial))
			sbh_tasks_queued++;
		mark_bh(SERIAL_BH);
	}
	spin_unlock(&sbh_lock);

	if (ret == HRTIMER_RESTART)
		hrtimer_forward_now(timer, ns_to_ktime(SBH_IRQ_PERIOD_NS));
	return ret;
}

static int sbh_send(const char *a, const char *b)
{
	const char *text[SBH_PORTS] = { a, b };
	struct sbh_port *info;
	unsigned long flags;
	int i;

	for (i = 0; i < SBH_PORTS; i++)
		if (strlen(text[i]) > SBH_MAX_TEXT)
			return -EINVAL;
	spin_lock_irqsave(&sbh_lock, flags);
	if (sbh_state == SBH_RECEIVING) {
		spin_unlock_irqrestore(&sbh_lock, flags);
		return -EBUSY;
	}
	sbh_state = SBH_RECEIVING;
	for (i = 0; i < SBH_PORTS; i++) {
		info = &sbh_ports[i];
		info->wire_len = strlen(text[i]);
		memcpy(info->wire, text[i], info->wire_len);
		info->wire_pos = 0;
		info->rx_len = 0;
		wqsample_log(&sbh_log, "send: port %d: %d bytes", i, info->wire_len);
	}
	spin_unlock_irqrestore(&sbh_lock, flags);

	hrtimer_start(&sbh_irq, ns_to_ktime(SBH_IRQ_PERIOD_NS),
		      HRTIMER_MODE_REL_HARD);
	return 0;
}

static void sbh_report(void)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&sbh_lock, flags);
	for (i = 0; i < SBH_PORTS; i++) {
		sbh_ports[i].rx[sbh_ports[i].rx_len] = '\0';
		wqsample_log(&sbh_log, "port %d: received \"%s\"", i, sbh_ports[i].rx);
	}
	spin_unlock_irqrestore(&sbh_lock, flags);
	wqsample_log(&sbh_log, "a port's task ever ran twice at once: %s",
		     sbh_task_overlap ? "yes" : "no");
}

static ssize_t sbh_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[2 * SBH_MAX_TEXT + 16];
	char a[SBH_MAX_TEXT + 1], b[SBH_MAX_TEXT + 1];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	if (sscanf(buf, "send %60s %60s", a, b) == 2) {
		ret = sbh_send(a, b);
	} else if (sysfs_streq(buf, "report")) {
		sbh_report();
		ret = 0;
	} else {
		ret = -EINVAL;
	}
	return ret ? ret : count;
}

static ssize_t sbh_state_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	enum sbh_state state;
	unsigned long flags;
	char buf[16];
	int i, len, arrived = 1;

	/* "done": every byte taken off the rings, and no task queued. */
	spin_lock_irqsave(&sbh_lock, flags);
	for (i = 0; i < SBH_PORTS; i++)
		if (sbh_ports[i].rx_len != sbh_ports[i].wire_len)
			arrived = 0;
	if (sbh_state == SBH_RECEIVING && arrived &&
	    sbh_tasks_run == sbh_tasks_queued)
		sbh_state = SBH_DONE;
	state = sbh_state;
	spin_unlock_irqrestore(&sbh_lock, flags);

	len = scnprintf(buf, sizeof(buf), "%s\n", sbh_state_name[state]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations sbh_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= sbh_ctl_write,
	.llseek	= noop_llseek,
};

static const struct file_operations sbh_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= sbh_state_read,
	.llseek	= default_llseek,
};

static int __init sbh_init(void)
{
	struct sbh_port *info;
	int i;

	for (i = 0; i < SBH_PORTS; i++) {
		info = &sbh_ports[i];
		info->line = i;
		atomic_set(&info->in_task, 0);
		info->tqueue.routine = sbh_do_softint;
		info->tqueue.data = info;
	}
	sbh_state = SBH_IDLE;
	hrtimer_init(&sbh_irq, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	sbh_irq.function = sbh_interrupt;
	init_bh(SERIAL_BH, do_serial_bh);

	wqsample_log_init(&sbh_log);
	sbh_dir = wqsample_debugfs_create(SBH_NAME, &sbh_log);
	debugfs_create_file("ctl", 0200, sbh_dir, NULL, &sbh_ctl_fops);
	debugfs_create_file("state", 0444, sbh_dir, NULL, &sbh_state_fops);
	return 0;
}

static void __exit sbh_exit(void)
{
	wqsample_debugfs_remove(sbh_dir);
	hrtimer_cancel(&sbh_irq);
	remove_bh(SERIAL_BH);
	/* Whatever the bottom half did not get to. */
	run_task_queue(&tq_serial);
}

module_init(sbh_init);
module_exit(sbh_exit);

MODULE_DESCRIPTION("wqport sample 5: a custom bottom half (SERIAL_BH) running a private task queue");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

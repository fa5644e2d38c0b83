// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_private_queue: a 2.4 driver with its own task queue.
 *
 * The 2.4 idiom: a driver declares a task queue of its own with
 * DECLARE_TASK_QUEUE(), collects work on it with queue_task() wherever the
 * work turns up, and runs the whole queue with run_task_queue() at a point
 * of its choosing (here: when user space asks, in process context).
 * run_task_queue() runs the routines synchronously, in the caller, in the
 * order they were queued; it takes the whole list first, so a routine that
 * queues a task (itself or another one) puts it into the next run, not this
 * one.  queue_task() returns 0 for a task that is already queued.
 *
 * Only the deferred-work code is 2.4; everything else is the 6.1 API.
 *
 * debugfs, /sys/kernel/debug/wqsample/private_queue/:
 *   ctl    "demo": queue, run the queue three times, log what happened
 *   log    the event log
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>

#include "wqsample_log.h"

#define PQ_NAME		"private_queue"

struct pq_cmd {
	struct tq_struct task;
	const char *name;
	int requeues;		/* times the routine still queues itself */
	struct pq_cmd *kick;	/* queued by this routine, or NULL */
};

static DECLARE_TASK_QUEUE(tq_pq);
static DEFINE_MUTEX(pq_mutex);		/* one demo at a time */
static struct task_struct *pq_caller;	/* who runs the queue */
static int pq_run;			/* number of the current run */
static int pq_not_in_caller;		/* routines that ran elsewhere */
static int pq_ran;			/* routines run in the current run */
static struct pq_cmd pq_a, pq_b, pq_c;
static struct wqsample_log pq_log;
static struct dentry *pq_dir;

static void pq_routine(void *data)
{
	struct pq_cmd *cmd = data;
	int ret;

	if (current != pq_caller)
		pq_not_in_caller++;
	pq_ran++;
	wqsample_log(&pq_log, "run %d: %s", pq_run, cmd->name);

	if (cmd->kick) {
		ret = queue_task(&cmd->kick->task, &tq_pq);
		wqsample_log(&pq_log, "run %d: %s queues %s: queue_task returned %d",
			     pq_run, cmd->name, cmd->kick->name, ret);
		cmd->kick = NULL;
	}
	if (cmd->requeues) {
		cmd->requeues--;
		ret = queue_task(&cmd->task, &tq_pq);
		wqsample_log(&pq_log, "run %d: %s requeues itself: queue_task returned %d",
			     pq_run, cmd->name, ret);
	}
}

static void pq_queue(struct pq_cmd *cmd)
{
	int ret = queue_task(&cmd->task, &tq_pq);

	wqsample_log(&pq_log, "queue %s: queue_task returned %d", cmd->name, ret);
}

static void pq_run_queue(void)
{
	pq_run++;
	pq_ran = 0;
	run_task_queue(&tq_pq);
	wqsample_log(&pq_log, "run %d: %d routines ran, queue %s afterwards",
		     pq_run, pq_ran, TQ_ACTIVE(tq_pq) ? "active" : "empty");
}

static void pq_demo(void)
{
	pq_caller = current;
	pq_run = 0;
	pq_not_in_caller = 0;
	pq_a.requeues = 0;
	pq_b.requeues = 0;
	pq_c.requeues = 1;	/* c runs twice: once per run */
	pq_b.kick = &pq_a;	/* b queues a, which already ran */

	wqsample_log(&pq_log, "demo: queue %s", TQ_ACTIVE(tq_pq) ? "active" : "empty");
	pq_queue(&pq_a);
	pq_queue(&pq_b);
	pq_queue(&pq_a);	/* already queued: 0 */
	pq_queue(&pq_c);
	wqsample_log(&pq_log, "demo: queue %s", TQ_ACTIVE(tq_pq) ? "active" : "empty");

	pq_run_queue();		/* a, b, c; b queues a, c requeues itself */
	pq_run_queue();		/* a, c */
	pq_run_queue();		/* nothing */

	wqsample_log(&pq_log, "demo: every routine ran in the caller of run_task_queue: %s",
		     pq_not_in_caller ? "no" : "yes");
}

static ssize_t pq_ctl_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[16];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (!sysfs_streq(buf, "demo"))
		return -EINVAL;

	mutex_lock(&pq_mutex);
	pq_demo();
	mutex_unlock(&pq_mutex);
	return count;
}

static const struct file_operations pq_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= pq_ctl_write,
	.llseek	= noop_llseek,
};

static void pq_cmd_init(struct pq_cmd *cmd, const char *name)
{
	cmd->name = name;
	INIT_TQUEUE(&cmd->task, pq_routine, cmd);
}

static int __init pq_init(void)
{
	pq_cmd_init(&pq_a, "a");
	pq_cmd_init(&pq_b, "b");
	pq_cmd_init(&pq_c, "c");

	wqsample_log_init(&pq_log);
	pq_dir = wqsample_debugfs_create(PQ_NAME, &pq_log);
	debugfs_create_file("ctl", 0200, pq_dir, NULL, &pq_ctl_fops);
	return 0;
}

static void __exit pq_exit(void)
{
	wqsample_debugfs_remove(pq_dir);
	/* Nothing may stay queued on a queue that goes away with us. */
	mutex_lock(&pq_mutex);
	run_task_queue(&tq_pq);
	mutex_unlock(&pq_mutex);
}

module_init(pq_init);
module_exit(pq_exit);

MODULE_DESCRIPTION("wqport sample 4: a private task queue (DECLARE_TASK_QUEUE, run_task_queue)");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

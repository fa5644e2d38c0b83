// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_tq_disk: a 2.4 block driver that plugs its queue and is unplugged
 * through tq_disk.
 *
 * The 2.4 idiom (drivers/block/ll_rw_blk.c generic_plug_device(), and
 * drivers that managed their own plugging such as md and loop): when the
 * first request arrives at an idle device, the driver "plugs" it, holding
 * requests back so that more can be merged, and queues its unplug task on
 * tq_disk:
 *
 *	if (!dev->plugged) {
 *		dev->plugged = 1;
 *		queue_task(&dev->plug_tq, &tq_disk);
 *	}
 *
 * Whoever then waits for I/O (wait_on_buffer, lock_page, sync) calls
 * run_task_queue(&tq_disk), which unplugs every device and starts its I/O.
 * Nothing on a modern kernel runs tq_disk; the shim runs it after a short
 * delay too, so a driver that is never explicitly unplugged still makes
 * progress.  This sample does both: "sync" unplugs like a waiting process,
 * "submit" leaves it to the shim.  Only the deferred-work code is 2.4.
 *
 * debugfs, /sys/kernel/debug/wqsample/tq_disk/:
 *   ctl    "sync N":   submit N requests (1..16), then run_task_queue(&tq_disk)
 *          "submit N": submit N requests and let tq_disk be run by others
 *   state  "idle" or "plugged"
 *   log    the event log
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>

#include "wqsample_log.h"

#define DISK_NAME	"tq_disk"
#define DISK_MAX_REQ	16

struct disk_dev {
	struct tq_struct plug_tq;	/* the unplug task, on tq_disk */
	spinlock_t lock;		/* the "io_request_lock": all below */
	int plugged;
	int pending[DISK_MAX_REQ];	/* request numbers held back */
	int npending;
	int next_req;			/* number of the next request */
	int done;			/* requests completed */
};

static struct disk_dev disk;
static DEFINE_MUTEX(disk_ctl_mutex);
static struct wqsample_log disk_log;
static struct dentry *disk_dir;

/* The unplug task: starts every request held back, in order. */
static void disk_unplug_device(void *data)
{
	struct disk_dev *dev = data;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&dev->lock, flags);
	if (dev->plugged) {
		wqsample_log(&disk_log, "unplug: %d requests", dev->npending);
		for (i = 0; i < dev->npending; i++)
			wqsample_log(&disk_log, "request %d done", dev->pending[i]);
		dev->done += dev->npending;
		dev->npending = 0;
		dev->plugged = 0;
	}
	spin_unlock_irqrestore(&dev->lock, flags);
}

/*
 * Submit @n requests at once, as one process's burst of writes.  The lock
 * is held across the burst, so an unplug from elsewhere sees all of it or
 * none of it.
 */
static int disk_submit(struct disk_dev *dev, int n)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&dev->lock, flags);
	if (n < 1 || dev->npending + n > DISK_MAX_REQ) {
		spin_unlock_irqrestore(&dev->lock, flags);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!dev->plugged) {
			dev->plugged = 1;
			queue_task(&dev->plug_tq, &tq_disk);
			wqsample_log(&disk_log, "plug at request %d", dev->next_req);
		}
		dev->pending[dev->npending++] = dev->next_req++;
	}
	spin_unlock_irqrestore(&dev->lock, flags);
	return 0;
}

static ssize_t disk_ctl_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[32];
	int n, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&disk_ctl_mutex);
	if (sscanf(buf, "sync %d", &n) == 1) {
		ret = disk_submit(&disk, n);
		/*
		 * Start the I/O, as wait_on_buffer() did before it slept.  Not
		 * logged: the shim's unplug delay may have run tq_disk first,
		 * and the log must not depend on which of the two did.
		 */
		if (!ret)
			run_task_queue(&tq_disk);
	} else if (sscanf(buf, "submit %d", &n) == 1) {
		ret = disk_submit(&disk, n);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&disk_ctl_mutex);
	return ret ? ret : count;
}

static ssize_t disk_state_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned long flags;
	char buf[32];
	int plugged, done, len;

	spin_lock_irqsave(&disk.lock, flags);
	plugged = disk.plugged;
	done = disk.done;
	spin_unlock_irqrestore(&disk.lock, flags);

	len = scnprintf(buf, sizeof(buf), "%s %d\n",
			plugged ? "plugged" : "idle", done);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations disk_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= disk_ctl_write,
	.llseek	= noop_llseek,
};

static const struct file_operations disk_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= disk_state_read,
	.llseek	= default_llseek,
};

static int __init disk_init(void)
{
	spin_lock_init(&disk.lock);
	disk.next_req = 1;
	disk.plug_tq.routine = disk_unplug_device;
	disk.plug_tq.data = &disk;

	wqsample_log_init(&disk_log);
	disk_dir = wqsample_debugfs_create(DISK_NAME, &disk_log);
	debugfs_create_file("ctl", 0200, disk_dir, NULL, &disk_ctl_fops);
	debugfs_create_file("state", 0444, disk_dir, NULL, &disk_state_fops);
	return 0;
}

static void __exit disk_exit(void)
{
	wqsample_debugfs_remove(disk_dir);
	/* As a 2.4 block driver's cleanup did: start what is still plugged. */
	run_task_queue(&tq_disk);
}

module_init(disk_init);
module_exit(disk_exit);

MODULE_DESCRIPTION("wqport sample 6: plugging and unplugging through tq_disk");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * oldsched.c: a 2.4-style demo driver for `wqport build`: a task scheduled
 * on keventd, a header beside it, a read() that copies to a user pointer
 * without a __user annotation (2.4 had none), and the directory's old
 * Makefile.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>
#include "oldsched.h"

struct oldsched_dev oldsched;

static void oldsched_task(void *data)
{
	oldsched_hw_poll(data);
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
	INIT_TQUEUE(&oldsched.tq, oldsched_task, &oldsched);
	schedule_task(&oldsched.tq);
	return misc_register(&oldsched_misc);
}

static void __exit oldsched_exit(void)
{
	misc_deregister(&oldsched_misc);
	flush_scheduled_tasks();
}

module_init(oldsched_init);
module_exit(oldsched_exit);
MODULE_LICENSE("GPL");

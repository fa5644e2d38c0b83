// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_tq_initializers: every way 2.4 code set up a struct tq_struct.
 *
 * 2.4 drivers initialised their tasks
 *   - with GNU old-style static initializers, { routine: f, data: d }, the
 *     common form in 2.4 (often with no data at all);
 *   - with C99 designated initializers, { .routine = f, .data = d };
 *   - positionally, { { NULL, NULL }, 0, f, d }, following the field order
 *     list, sync, routine, data;
 *   - with plain field stores, t.routine = f; t.data = d; on a zeroed
 *     structure (static, kmalloc'ed and memset, or an array in a loop);
 *   - with INIT_TQUEUE(), and PREPARE_TQUEUE() to change routine and data.
 * Every one of them must queue and run the same.  Here each task is handed
 * to keventd with schedule_task(); after flush_scheduled_tasks() the driver
 * logs, in a fixed order, how often each routine ran with its own data.
 *
 * Only the deferred-work code is 2.4; everything else is the 6.1 API.
 *
 * debugfs, /sys/kernel/debug/wqsample/tq_initializers/:
 *   ctl    "run": schedule every task once, flush, log the counts
 *   log    the event log
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tqueue.h>
#include <linux/uaccess.h>

#include "wqsample_log.h"

#define TQI_NAME	"tq_initializers"
#define TQI_PORTS	2

struct tqi_dev {
	const char *style;
	struct tq_struct task;
	int ran;		/* runs of the routine with this device as data */
};

static void tqi_routine(void *data)
{
	struct tqi_dev *dev = data;

	dev->ran++;
}

/* GNU old-style, no data: the routine uses a global. */
static int tqi_nodata_ran;

static void tqi_nodata_routine(void *data)
{
	tqi_nodata_ran++;
}

static struct tq_struct tqi_nodata_task = {
	routine:	tqi_nodata_routine,
};

/* GNU old-style, nested in the device it belongs to. */
static struct tqi_dev tqi_gnu = {
	style:		"GNU old-style",
	task:		{ routine: tqi_routine, data: &tqi_gnu },
};

/* C99 designated. */
static struct tqi_dev tqi_c99 = {
	.style		= "C99 designated",
	.task		= { .routine = tqi_routine, .data = &tqi_c99 },
};

/* Positional: list, sync, routine, data. */
static struct tqi_dev tqi_pos = {
	"positional",
	{ { NULL, NULL }, 0, tqi_routine, &tqi_pos },
	0
};

/* Field stores on a static (zeroed) structure, done in init. */
static struct tqi_dev tqi_static_stores;

/* Field stores on a kmalloc'ed, memset structure. */
static struct tqi_dev *tqi_heap;

/* Field stores on an array, in a loop, as serial drivers set up ports. */
static struct tqi_dev tqi_ports[TQI_PORTS];

/* INIT_TQUEUE, and INIT_TQUEUE followed by PREPARE_TQUEUE. */
static struct tqi_dev tqi_init, tqi_prepare;

static DEFINE_MUTEX(tqi_mutex);		/* one run at a time */
static struct wqsample_log tqi_log;
static struct dentry *tqi_dir;

static struct tqi_dev *tqi_devs[TQI_PORTS + 8];
static int tqi_ndevs;

static void tqi_run(void)
{
	int i, queued = 0, tasks = 0;

	queued += schedule_task(&tqi_nodata_task);
	tasks++;
	for (i = 0; i < tqi_ndevs; i++) {
		queued += schedule_task(&tqi_devs[i]->task);
		tasks++;
	}
	flush_scheduled_tasks();

	wqsample_log(&tqi_log, "run: schedule_task returned 1 for %d of %d tasks",
		     queued, tasks);
	wqsample_log(&tqi_log, "GNU old-style, no data: ran %d time(s)",
		     tqi_nodata_ran);
	for (i = 0; i < tqi_ndevs; i++)
		wqsample_log(&tqi_log, "%s: ran %d time(s) with its data",
			     tqi_devs[i]->style, tqi_devs[i]->ran);
}

static ssize_t tqi_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[16];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (!sysfs_streq(buf, "run"))
		return -EINVAL;

	mutex_lock(&tqi_mutex);
	tqi_run();
	mutex_unlock(&tqi_mutex);
	return count;
}

static const struct file_operations tqi_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= tqi_ctl_write,
	.llseek	= noop_llseek,
};

static void tqi_prepare_wrong(void *data)
{
	/* PREPARE_TQUEUE replaces this before the task is ever queued. */
	WARN_ONCE(1, "wqsample_tq_initializers: routine before PREPARE_TQUEUE ran\n");
}

static int __init tqi_init_module(void)
{
	int i;

	/* Field stores, static. */
	tqi_static_stores.style = "field stores, static";
	tqi_static_stores.task.routine = tqi_routine;
	tqi_static_stores.task.data = &tqi_static_stores;

	/* Field stores, kmalloc and memset. */
	tqi_heap = kmalloc(sizeof(*tqi_heap), GFP_KERNEL);
	if (!tqi_heap)
		return -ENOMEM;
	memset(tqi_heap, 0, sizeof(*tqi_heap));
	tqi_heap->style = "field stores, kmalloc";
	tqi_heap->task.routine = tqi_routine;
	tqi_heap->task.data = tqi_heap;

	/* Field stores, array. */
	for (i = 0; i < TQI_PORTS; i++) {
		tqi_ports[i].style = i ? "field stores, array[1]" :
					 "field stores, array[0]";
		tqi_ports[i].task.routine = tqi_routine;
		tqi_ports[i].task.data = &tqi_ports[i];
	}

	tqi_init.style = "INIT_TQUEUE";
	INIT_TQUEUE(&tqi_init.task, tqi_routine, &tqi_init);

	tqi_prepare.style = "INIT_TQUEUE then PREPARE_TQUEUE";
	INIT_TQUEUE(&tqi_prepare.task, tqi_prepare_wrong, NULL);
	PREPARE_TQUEUE(&tqi_prepare.task, tqi_routine, &tqi_prepare);

	tqi_devs[tqi_ndevs++] = &tqi_gnu;
	tqi_devs[tqi_ndevs++] = &tqi_c99;
	tqi_devs[tqi_ndevs++] = &tqi_pos;
	tqi_devs[tqi_ndevs++] = &tqi_static_stores;
	tqi_devs[tqi_ndevs++] = tqi_heap;
	for (i = 0; i < TQI_PORTS; i++)
		tqi_devs[tqi_ndevs++] = &tqi_ports[i];
	tqi_devs[tqi_ndevs++] = &tqi_init;
	tqi_devs[tqi_ndevs++] = &tqi_prepare;

	wqsample_log_init(&tqi_log);
	tqi_dir = wqsample_debugfs_create(TQI_NAME, &tqi_log);
	debugfs_create_file("ctl", 0200, tqi_dir, NULL, &tqi_ctl_fops);
	return 0;
}

static void __exit tqi_exit_module(void)
{
	wqsample_debugfs_remove(tqi_dir);
	/* Every run flushed; this only covers a run cut short. */
	flush_scheduled_tasks();
	kfree(tqi_heap);
}

module_init(tqi_init_module);
module_exit(tqi_exit_module);

MODULE_DESCRIPTION("wqport sample 9: every way 2.4 code initialised a tq_struct");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

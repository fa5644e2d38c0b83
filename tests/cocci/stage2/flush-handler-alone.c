/*
 * Rule 7: flush_scheduled_work() in the handler of the file's only item:
 * nothing of the driver's left to wait for there (2.6 did not run the
 * running item again), so the call goes; the exit path flushes the item.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static int polls;

static void poll_fn(void *data)
{
	polls++;
	flush_scheduled_work();
}

static DECLARE_WORK(poll_work, poll_fn, NULL);

static int __init poll_init(void)
{
	schedule_work(&poll_work);
	return 0;
}

static void __exit poll_exit(void)
{
	flush_scheduled_work();
}

module_init(poll_init);
module_exit(poll_exit);

/*
 * Rule 7: a flush_scheduled_work() above the DECLARE_WORK of the item it
 * would name: flush_work(&poll_work) there would not build; reported, and
 * the exit path below the declaration is converted.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static int polls;

static void poll_fn(void *data)
{
	polls++;
}

static void poll_sync(void)
{
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

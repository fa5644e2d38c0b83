/* A 2.6 driver that delays its item through a macro of its own. */
#include <linux/module.h>
#include <linux/workqueue.h>

#define MY_DELAY(item) schedule_delayed_work(item, HZ / 10)

static struct work_struct tick_work;
static int ticks;

static void tick(void *data)
{
	if (++ticks < 10)
		MY_DELAY(&tick_work);
}

static int __init md_init(void)
{
	INIT_WORK(&tick_work, tick, NULL);
	MY_DELAY(&tick_work);
	return 0;
}

static void __exit md_exit(void)
{
	cancel_delayed_work(&tick_work);
	flush_scheduled_work();
}

module_init(md_init);
module_exit(md_exit);
MODULE_LICENSE("GPL");

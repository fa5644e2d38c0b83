/* Rule 2: NULL data, the handler never reads it; a static delayed item. */
#include <linux/workqueue.h>

static void tick(void *unused)
{
	printk("tick\n");
}

static void tock(void *unused)
{
	printk("tock\n");
}

static DECLARE_WORK(tick_work, tick, NULL);
static DECLARE_WORK(tock_work, tock, NULL);

static void start(void)
{
	schedule_delayed_work(&tick_work, HZ);
	schedule_work(&tock_work);
}

static void stop(void)
{
	cancel_delayed_work(&tick_work);
	flush_scheduled_work();
}

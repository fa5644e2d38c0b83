/*
 * Constant data that the handler reads (a 2.6.18 input driver style):
 * every item passes NULL, and the handler tests it.  The value is known,
 * so the converted handler holds it as a local; the direct call passes the
 * item.  beep_work's data is 1 on one item and 2 on the other: reported.
 */
#include <linux/workqueue.h>
#include <linux/kernel.h>

static int kicks;

static void kick(void *data)
{
	if (!data)
		kicks++;
}

static void beep(void *data)
{
	printk(KERN_INFO "beep %ld\n", (long)data);
}

static DECLARE_WORK(kick_work, kick, NULL);
static DECLARE_WORK(beep_short, beep, (void *)1);
static DECLARE_WORK(beep_long, beep, (void *)2);

void start(void)
{
	kick(NULL);
	schedule_work(&kick_work);
	schedule_work(&beep_short);
	schedule_work(&beep_long);
}

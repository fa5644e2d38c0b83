/*
 * Old code under #if 0 (2.4.27 ssa_cs.c), a message naming the old call
 * (2.4.27 acpi/osl.c): neither is a call left for a human.
 */
#include <linux/tqueue.h>

static void poll_fn(void *data)
{
}

static struct tq_struct poll_task;

void poll_start(void)
{
	INIT_TQUEUE(&poll_task, poll_fn, NULL);
	if (!schedule_task(&poll_task))
		printk(KERN_ERR "poll: Call to schedule_task() failed.\n");
}

#if 0
static void poll_irq(void)
{
	schedule_task(&poll_task);
}
#endif

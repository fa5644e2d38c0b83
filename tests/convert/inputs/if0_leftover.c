/* Old code under #if 0 (2.4.27 ssa_cs.c): spatch skips it, so must the check. */
#include <linux/tqueue.h>

static void poll_fn(void *data)
{
}

static struct tq_struct poll_task;

void poll_start(void)
{
	INIT_TQUEUE(&poll_task, poll_fn, NULL);
	schedule_task(&poll_task);
}

#if 0
static void poll_irq(void)
{
	schedule_task(&poll_task);
}
#endif

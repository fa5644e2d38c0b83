/* Reading tq_struct internals: work_struct has no sync or list. */
#include <linux/tqueue.h>

static struct tq_struct tq;

int is_queued(void)
{
	return tq.sync != 0;
}

void kick(void)
{
	schedule_task(&tq);
}

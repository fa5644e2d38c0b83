/* Reading tq_struct internals: work_struct has no sync or list.  A read of
 * sync is 2.4's "queued, not yet run", which work_pending() tells; the
 * list is reported, and its task stays on the 2.4 API. */
#include <linux/tqueue.h>

static struct tq_struct tq;
static struct tq_struct tq2;

int is_queued(void)
{
	return tq.sync != 0;
}

int is_linked(void)
{
	return !list_empty(&tq2.list);
}

void kick(void)
{
	schedule_task(&tq);
	schedule_task(&tq2);
}

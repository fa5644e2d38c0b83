/*
 * wanpipe style: 2.2's tq_scheduler in the branch for kernels before
 * 2.4, behind the driver's own LINUX_2_4 (which stage 1 cannot evaluate).
 * No 2.4 kernel has tq_scheduler, so that branch never compiles on one:
 * it is left as it is, with an item, and the task converts.
 */
#include <linux/tqueue.h>

struct fr_channel {
	struct tq_struct fr_poll_task;
};

static void fr_poll(void *data);

void fr_init(struct fr_channel *chan)
{
	INIT_TQUEUE(&chan->fr_poll_task, fr_poll, chan);
}

void trigger_fr_poll(struct fr_channel *chan)
{
#ifdef LINUX_2_4
	schedule_task(&chan->fr_poll_task);
#else
	queue_task(&chan->fr_poll_task, &tq_scheduler);
#endif
}

/* A private queue run from the driver's own (custom) bottom half: one work item per task. */
#include <linux/interrupt.h>
#include <linux/tqueue.h>

static DECLARE_TASK_QUEUE(tq_cyclades);

struct info {
	struct tq_struct tqueue;
};

static void do_cyclades_bh(void)
{
	run_task_queue(&tq_cyclades);
}

void cy_sched_event(struct info *info)
{
	queue_task(&info->tqueue, &tq_cyclades);
	mark_bh(CYCLADES_BH);
}

int cy_init(void)
{
	init_bh(CYCLADES_BH, do_cyclades_bh);
	return 0;
}

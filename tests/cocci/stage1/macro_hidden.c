/* A macro of several statements hides task-queue code: reported, file left. */
#include <linux/tqueue.h>

#define QUEUE_BH(t)	queue_task((t), &tq_immediate); mark_bh(IMMEDIATE_BH)

struct card {
	struct tq_struct tq;
};

void card_event(struct card *c)
{
	QUEUE_BH(&c->tq);
	schedule_task(&c->tq);
}

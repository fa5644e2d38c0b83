/* A tq_immediate routine kept out of a reader by local_bh_disable():
 * as a work item it would no longer be; the task is kept, with an item. */
#include <linux/tqueue.h>
#include <linux/interrupt.h>

struct card {
	struct tq_struct tq;
	int events;
};

static void card_bh(void *data)
{
	struct card *c = data;

	c->events = 0;
}

void card_irq(struct card *c)
{
	queue_task(&c->tq, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

int card_read_events(struct card *c)
{
	int n;

	local_bh_disable();
	n = c->events;
	local_bh_enable();
	return n;
}

void card_init(struct card *c)
{
	INIT_TQUEUE(&c->tq, card_bh, c);
}

/* tq_immediate with its mark_bh(IMMEDIATE_BH), adjacent or not. */
#include <linux/interrupt.h>
#include <linux/tqueue.h>

struct chan {
	struct tq_struct tqueue;
	struct tq_struct rx_tq;
};

static void chan_softint(void *data);

void chan_irq(struct chan *c, int rx)
{
	queue_task(&c->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	if (rx) {
		queue_task(&c->rx_tq, &tq_immediate);
		c->tqueue.data = c;
		mark_bh(IMMEDIATE_BH);
	}
}

void chan_init(struct chan *c)
{
	INIT_TQUEUE(&c->tqueue, chan_softint, c);
	INIT_TQUEUE(&c->rx_tq, chan_softint, c);
}

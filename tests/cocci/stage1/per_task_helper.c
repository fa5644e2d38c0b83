/*
 * Tasks tied to a blocked one stay with it: rx_task and tx_task share the
 * helper card_kick(), and rx_task's sync is written (no struct work_struct
 * has it); err_task shares nothing with them and converts.  A pointer set
 * from a task (cur) ties too.
 */
#include <linux/tqueue.h>

struct card {
	struct tq_struct rx_task;
	struct tq_struct tx_task;
	struct tq_struct err_task;
	int errors;
};

static void card_rx(void *data);
static void card_tx(void *data);
static void card_err(void *data);

static void card_kick(struct tq_struct *t)
{
	queue_task(t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void card_setup(struct card *c)
{
	INIT_TQUEUE(&c->rx_task, card_rx, c);
	INIT_TQUEUE(&c->tx_task, card_tx, c);
	INIT_TQUEUE(&c->err_task, card_err, c);
}

void card_irq(struct card *c, int status)
{
	struct tq_struct *cur;

	if (status & 1) {
		c->rx_task.sync = 1;	/* claim it before the bottom half runs */
		card_kick(&c->rx_task);
	}
	if (status & 2)
		card_kick(&c->tx_task);
	if (status & 4) {
		cur = &c->tx_task;
		queue_task(cur, &tq_immediate);
	}
	if (status & 8) {
		c->errors++;
		schedule_task(&c->err_task);
	}
}

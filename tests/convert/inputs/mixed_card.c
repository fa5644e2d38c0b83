// SPDX-License-Identifier: GPL-2.0
/*
 * A 2.4 driver that stage 1 converts in part: rx_task and tx_task share
 * card_kick() and rx_task's sync is written, so both stay on the 2.4 API;
 * err_task shares nothing with them and converts.  The output must build
 * against the shim, both kinds side by side.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>

struct card {
	struct tq_struct rx_task;
	struct tq_struct tx_task;
	struct tq_struct err_task;
	int rx, tx, errors;
};

static struct card card0;

static void card_rx(void *data)
{
	struct card *c = data;

	c->rx++;
}

static void card_tx(void *data)
{
	struct card *c = data;

	c->tx++;
}

static void card_err(void *data)
{
	struct card *c = data;

	c->errors++;
}

static void card_kick(struct tq_struct *t)
{
	queue_task(t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static void card_irq(struct card *c, int status)
{
	if (status & 1) {
		c->rx_task.sync = 1;
		card_kick(&c->rx_task);
	}
	if (status & 2)
		card_kick(&c->tx_task);
	if (status & 4)
		schedule_task(&c->err_task);
}

static int __init card_init(void)
{
	INIT_TQUEUE(&card0.rx_task, card_rx, &card0);
	INIT_TQUEUE(&card0.tx_task, card_tx, &card0);
	INIT_TQUEUE(&card0.err_task, card_err, &card0);
	card_irq(&card0, 7);
	return 0;
}

static void __exit card_exit(void)
{
	flush_scheduled_tasks();
}

module_init(card_init);
module_exit(card_exit);
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * A small 2.4 driver for the fuzzer: a poll task re-queued on tq_timer, an
 * rx task on tq_immediate run by IMMEDIATE_BH, a reset task given to
 * keventd with schedule_task(), a GNU initializer, and an exit that
 * flushes.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/tqueue.h>
#include <linux/interrupt.h>

struct fz_card {
	struct tq_struct poll_task;
	struct tq_struct rx_task;
	int polls;
	int stopping;
};

static struct fz_card fz_card;

static void fz_reset(void *data)
{
	struct fz_card *card = data;

	card->polls = 0;
}

static struct tq_struct fz_reset_task = { routine: fz_reset, data: &fz_card };

static void fz_poll(void *data)
{
	struct fz_card *card = data;

	card->polls++;
	if (!card->stopping)
		queue_task(&card->poll_task, &tq_timer);
}

static void fz_rx(void *data)
{
	struct fz_card *card = data;

	if (card->polls > 100)
		schedule_task(&fz_reset_task);
}

void fz_interrupt(void)
{
	queue_task(&fz_card.rx_task, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static int __init fz_init(void)
{
	INIT_TQUEUE(&fz_card.poll_task, fz_poll, &fz_card);
	INIT_TQUEUE(&fz_card.rx_task, fz_rx, &fz_card);
	queue_task(&fz_card.poll_task, &tq_timer);
	return 0;
}

static void __exit fz_exit(void)
{
	fz_card.stopping = 1;
	flush_scheduled_tasks();
}

module_init(fz_init);
module_exit(fz_exit);
MODULE_LICENSE("GPL");

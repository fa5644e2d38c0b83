/*
 * 2.4.18 drivers/scsi/oktagon_esp.c: a task set up by a GNU initializer,
 * its sync cleared by hand before each queueing from the interrupt path,
 * and read to tell whether one is pending.
 */
#include <linux/module.h>
#include <linux/tqueue.h>
#include <linux/interrupt.h>

static int dma_on;

static void dma_commit(void *unused);

static struct tq_struct tq_fake_dma = {
    routine:	dma_commit,
};

static void dma_commit(void *unused)
{
	dma_on = 0;
}

static void dma_kick(void)
{
	if (tq_fake_dma.sync)
		return;
	queue_task(&tq_fake_dma, &tq_immediate);
}

static void dma_irq_exit(void)
{
	if (dma_on) {
		tq_fake_dma.sync = 0;
		queue_task(&tq_fake_dma, &tq_immediate);
		mark_bh(IMMEDIATE_BH);
	}
}

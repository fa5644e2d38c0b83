// SPDX-License-Identifier: GPL-2.0
/*
 * A task queued through a variadic driver macro that passes the queue on
 * (queue_task(__VA_ARGS__)): it stays on the 2.4 API with the macro
 * (W011), and so does the mark_bh(IMMEDIATE_BH) that runs it.
 */
#include <linux/module.h>
#include <linux/tqueue.h>
#include <linux/interrupt.h>
#define DRV_QUEUE_TASK(...) queue_task(__VA_ARGS__)

static int hits;

static void va_rx(void *data)
{
	hits++;
}

static struct tq_struct va_task = { routine: va_rx };
static struct tq_struct va_other = { routine: va_rx };

void va_interrupt(void)
{
	DRV_QUEUE_TASK(&va_task, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void va_later(void)
{
	schedule_task(&va_other);
}

MODULE_LICENSE("GPL");

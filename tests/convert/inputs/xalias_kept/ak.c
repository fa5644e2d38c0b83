// SPDX-License-Identifier: GPL-2.0
/*
 * A task declared through the driver's typedef, its data stored apart
 * (W018): it stays on the 2.4 API, its declaration with it, and the
 * struct tq_struct task beside it converts.
 */
#include <linux/module.h>
#include "ak.h"

static int ticks;

static void ak_tick(void *priv)
{
	if (ticks++ < 3)
		queue_task((ak_task_t *)priv, &tq_timer);
}

static void ak_work(void *data)
{
	ticks = 0;
}

static struct tq_struct ak_other = { routine: ak_work };

static int __init ak_init(void)
{
	static ak_task_t tick = { .routine = ak_tick };

	tick.data = &tick;
	queue_task(&tick, &tq_timer);
	schedule_task(&ak_other);
	return 0;
}

module_init(ak_init);
MODULE_LICENSE("GPL");

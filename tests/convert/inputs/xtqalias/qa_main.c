// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/kernel.h>
#include "qa_compat.h"

struct qa_dev {
	int resets;
	QA_TASK reset_task;
};

static struct qa_dev qa0;
static QA_TASK poll_task;
static void qa_poll(void *data);
/* an initialised one: DECLARE_WORK(), as for struct tq_struct */
static QA_TASK kick_task = { routine: qa_poll, data: NULL };

static void qa_reset(void *data)
{
	struct qa_dev *qa = data;

	qa->resets++;
}

static void qa_poll(void *data)
{
}

static int __init qa_init(void)
{
	INIT_TQUEUE(&qa0.reset_task, qa_reset, &qa0);
	INIT_TQUEUE(&poll_task, qa_poll, NULL);
	schedule_task(&qa0.reset_task);
	schedule_task(&poll_task);
	schedule_task(&kick_task);
	return 0;
}

static void __exit qa_exit(void)
{
	flush_scheduled_tasks();
}

module_init(qa_init);
module_exit(qa_exit);

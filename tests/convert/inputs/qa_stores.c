// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include "qa_compat.h"

static QA_TASK aux_task;

static void qa_aux(void *data)
{
}

void qa_aux_start(void)
{
	aux_task.routine = qa_aux;
	aux_task.data = NULL;
	schedule_task(&aux_task);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A 2.4 call in a driver's own macro, which stage 1 does not see: the call
 * stays (W201), and so must the header that declares it, so that the
 * output still builds against the shim (found by tests/fuzz).
 */
#include <linux/module.h>
#include <linux/tqueue.h>

#define DRV_FLUSH_TASKS(...) flush_scheduled_tasks(__VA_ARGS__)

static struct tq_struct mf_task;

static void mf_fn(void *data)
{
}

void mf_start(void)
{
	INIT_TQUEUE(&mf_task, mf_fn, NULL);
	schedule_task(&mf_task);
}

void mf_stop(void)
{
	DRV_FLUSH_TASKS();
}

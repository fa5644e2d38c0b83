// SPDX-License-Identifier: GPL-2.0
/*
 * A 2.6 handler also stored in an ops table (W116): its registration
 * keeps its data argument because of that item, which says so; no second
 * item at the INIT_WORK.
 */
#include <linux/workqueue.h>

struct foo {
	struct work_struct reset;
	void (*recover)(void *data);
	int resets;
};

static void foo_reset_task(void *data)
{
	struct foo *foo = data;

	foo->resets++;
}

void foo_init(struct foo *foo)
{
	INIT_WORK(&foo->reset, foo_reset_task, foo);
	foo->recover = foo_reset_task;
}

void foo_error(struct foo *foo)
{
	schedule_work(&foo->reset);
}

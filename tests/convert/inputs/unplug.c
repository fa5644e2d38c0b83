// SPDX-License-Identifier: GPL-2.0
/* 2.4 block-layer unplugging: stage 1 must report it, not convert it. */
#include <linux/tqueue.h>

static struct tq_struct fake_plug;

static void fake_unplug(void *data)
{
}

void fake_plug_device(void)
{
	fake_plug.routine = fake_unplug;
	fake_plug.data = NULL;
	queue_task(&fake_plug, &tq_disk);
}

// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/tqueue.h>
#include "hostap_wlan.h"

static void handle_set_tim_queue(void *data)
{
	struct local_info *local = data;

	local->card--;
}

void ap_init_data(struct local_info *local)
{
	local->set_tim_queue.routine = handle_set_tim_queue;
	local->set_tim_queue.data = local;
}

void ap_set_tim(struct local_info *local)
{
	schedule_task(&local->set_tim_queue);
}

// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/tqueue.h>
#include "hostap_wlan.h"

static void prism2_reset_task(void *data)
{
	struct local_info *local = data;

	local->card = 0;
}

static void prism2_info_task(void *data)
{
	struct local_info *local = data;

	local->card++;
}

void prism2_setup(struct local_info *local)
{
	INIT_TQUEUE(&local->reset_queue, prism2_reset_task, local);
	INIT_TQUEUE(&local->info_queue, prism2_info_task, local);
}

void prism2_kick(struct local_info *local)
{
	schedule_task(&local->reset_queue);
	schedule_task(&local->info_queue);
}

// SPDX-License-Identifier: GPL-2.0
/* Defines cyc_a_task(), registers cyc_b_task(). */
#include "cyc.h"

void cyc_a_task(void *data)
{
	struct cyc *c = data;

	c->a++;
}

void cyc_a_setup(struct cyc *c)
{
	INIT_WORK(&c->wb, cyc_b_task, c);
}

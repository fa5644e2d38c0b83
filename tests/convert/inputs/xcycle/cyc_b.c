// SPDX-License-Identifier: GPL-2.0
/* Defines cyc_b_task(), registers cyc_a_task(). */
#include "cyc.h"

void cyc_b_task(void *data)
{
	struct cyc *c = data;

	c->b++;
}

void cyc_b_setup(struct cyc *c)
{
	INIT_WORK(&c->wa, cyc_a_task, c);
}

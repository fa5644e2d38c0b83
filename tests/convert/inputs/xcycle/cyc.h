/* SPDX-License-Identifier: GPL-2.0 */
/* Two files that register each other's handlers. */
#include <linux/workqueue.h>

struct cyc {
	int a, b;
	struct work_struct wa, wb;
};

void cyc_a_task(void *data);
void cyc_b_task(void *data);

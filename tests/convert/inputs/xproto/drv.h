/* SPDX-License-Identifier: GPL-2.0 */
/* A driver's own header: the handler's prototype lives here. */
#include <linux/workqueue.h>

struct drv {
	int state;
	struct work_struct reset;
};

void drv_reset_task(void *data);

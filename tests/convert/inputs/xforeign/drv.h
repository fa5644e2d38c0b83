/* SPDX-License-Identifier: GPL-2.0 */
/* A driver of three files: its structure and handlers' prototypes. */
#include <linux/workqueue.h>

struct net_device;

struct drv {
	struct net_device *dev;
	int state;
	struct work_struct reset;
	struct work_struct poll;
	struct work_struct flush;
};

void drv_reset_task(void *data);
void drv_poll(void *data);
void drv_flush(void *data);

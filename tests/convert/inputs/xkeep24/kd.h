/* SPDX-License-Identifier: GPL-2.0 */
/* The header's task is converted; it alone included <linux/tqueue.h>. */
#include <linux/tqueue.h>

struct kd_dev {
	struct tq_struct task;
	int n;
};

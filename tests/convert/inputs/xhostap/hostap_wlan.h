/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostap (wl530g-mini) style: the driver's tasks are declared through its
 * own macro for struct tq_struct, in its own header.
 */
#ifndef HOSTAP_WLAN_H
#define HOSTAP_WLAN_H
#include <linux/tqueue.h>
#define HOSTAP_QUEUE struct tq_struct

struct local_info {
	int card;
	HOSTAP_QUEUE reset_queue;
	HOSTAP_QUEUE info_queue;
	HOSTAP_QUEUE bss_queue;
	struct tq_struct set_tim_queue;
};
#endif

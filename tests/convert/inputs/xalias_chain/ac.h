/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's name for struct tq_struct, a typedef of its own macro for
 * it (tests/convert/run).
 */
#ifndef AC_H
#define AC_H

#include <linux/tqueue.h>
#define AC_TASK struct tq_struct
typedef AC_TASK ac_task_t;

struct ac_port {
	int events;
	ac_task_t tqueue;
};

#endif /* AC_H */

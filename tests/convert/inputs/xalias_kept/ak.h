/* SPDX-License-Identifier: GPL-2.0 */
/* The driver's name for struct tq_struct (tests/convert/run). */
#ifndef AK_H
#define AK_H

#include <linux/tqueue.h>
typedef struct tq_struct ak_task_t;

#endif /* AK_H */

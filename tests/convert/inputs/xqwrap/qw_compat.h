/* SPDX-License-Identifier: GPL-2.0 */
#ifndef QW_COMPAT_H
#define QW_COMPAT_H

#include <linux/tqueue.h>

#define QW_QUEUE struct tq_struct
#define QW_FLUSH() flush_scheduled_tasks()

#define QW_SCHEDULE(q) \
MOD_INC_USE_COUNT; \
if (schedule_task((q)) == 0) \
	MOD_DEC_USE_COUNT;

static inline void QW_QUEUE_INIT(struct tq_struct *tq,
				 void (*routine)(void *), void *data)
{
	INIT_LIST_HEAD(&tq->list);
	tq->sync = 0;
	tq->routine = routine;
	tq->data = data;
}

#endif

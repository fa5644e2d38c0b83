/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NC_COMPAT_H
#define NC_COMPAT_H

#if (LINUX_VERSION_CODE < KERNEL_VERSION(2,4,0))
/* 2.2 */
#define NC_QUEUE struct tq_struct
#define NC_SCHEDULE(q) queue_task((q), &tq_scheduler)
#else
#if (LINUX_VERSION_CODE < KERNEL_VERSION(2,5,44))
#define NC_QUEUE struct tq_struct
#define NC_SCHEDULE(q) \
MOD_INC_USE_COUNT; \
if (schedule_task((q)) == 0) \
	MOD_DEC_USE_COUNT;
#define NC_FLUSH() flush_scheduled_tasks()

static inline void NC_QUEUE_INIT(struct tq_struct *tq,
				 void (*routine)(void *), void *data)
{
	INIT_LIST_HEAD(&tq->list);
	tq->sync = 0;
	tq->routine = routine;
	tq->data = data;
}
#else
#define NC_QUEUE struct work_struct
#define NC_SCHEDULE(q) schedule_work(q)
#define NC_FLUSH() flush_scheduled_work()
#endif
#endif

#endif

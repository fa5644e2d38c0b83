/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/tqueue.h>: the Linux 2.4 task-queue API on Linux 6.1, for
 * unmodified 2.4 drivers (wqcompat.ko, compat/tqueue.c, compat/keventd.c).
 *
 * The 2.4 names are macros for wqcompat_ symbols, as Linux backports does,
 * so that the shim never collides with a name the kernel may take later.
 * The contract of each function is written where it is defined; the
 * differences from 2.4 are listed in docs/compat-tqueue.md.
 */
#ifndef _WQCOMPAT_LINUX_TQUEUE_H
#define _WQCOMPAT_LINUX_TQUEUE_H

#include <linux/list.h>
#include <linux/types.h>

/*
 * struct tq_struct: exactly 2.4's layout, nothing hidden, so that every way
 * a 2.4 driver sets one up works: INIT_TQUEUE(), PREPARE_TQUEUE(), GNU
 * old-style static initializers { routine: f, data: d }, C99 designated,
 * positional { { NULL, NULL }, 0, f, d }, and plain field stores.  An
 * all-zero tq_struct (static storage, kzalloc) is ready to queue: the shim
 * never reads @list before queue_task() wrote it.
 */
struct tq_struct {
	struct list_head list;		/* linked list of active tasks */
	unsigned long sync;		/* bit 0: queued; must start as zero */
	void (*routine)(void *data);	/* function to call */
	void *data;			/* argument to function */
};

typedef struct list_head task_queue;

#define DECLARE_TASK_QUEUE(q)	LIST_HEAD(q)
#define TQ_ACTIVE(q)		(!list_empty(&(q)))

/* Initialise a tq_struct's routine and data pointers (not when queued). */
#define PREPARE_TQUEUE(_tq, _routine, _data)			\
	do {							\
		(_tq)->routine = _routine;			\
		(_tq)->data = _data;				\
	} while (0)

/* Initialise all of a tq_struct. */
#define INIT_TQUEUE(_tq, _routine, _data)			\
	do {							\
		INIT_LIST_HEAD(&(_tq)->list);			\
		(_tq)->sync = 0;				\
		PREPARE_TQUEUE((_tq), (_routine), (_data));	\
	} while (0)

/* The queues the shim runs: see compat/tqueue.c. */
extern task_queue wqcompat_tq_timer;
extern task_queue wqcompat_tq_immediate;
extern task_queue wqcompat_tq_disk;

int wqcompat_queue_task(struct tq_struct *task, task_queue *list);
void wqcompat_run_task_queue(task_queue *list);
int wqcompat_schedule_task(struct tq_struct *task);
void wqcompat_flush_scheduled_tasks(void);
int wqcompat_current_is_keventd(void);

#define tq_timer			wqcompat_tq_timer
#define tq_immediate			wqcompat_tq_immediate
#define tq_disk				wqcompat_tq_disk
#define queue_task(task, list)		wqcompat_queue_task(task, list)
#define run_task_queue(list)		wqcompat_run_task_queue(list)
#define schedule_task(task)		wqcompat_schedule_task(task)
#define flush_scheduled_tasks()		wqcompat_flush_scheduled_tasks()
#define current_is_keventd()	wqcompat_current_is_keventd()

#endif /* _WQCOMPAT_LINUX_TQUEUE_H */

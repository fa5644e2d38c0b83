/*
 * A driver's own bottom-half number, a GNU initializer, no drain at exit:
 * remove_bh() becomes the flush that waits for the work items.
 */
#include <linux/interrupt.h>
#include <linux/tqueue.h>

#define MYDEV_BH 12

static void mydev_task(void *data);
static struct tq_struct mydev_tq = { routine: mydev_task, data: NULL };
static DECLARE_TASK_QUEUE(tq_mydev);

static void mydev_bh(void)
{
	run_task_queue(&tq_mydev);
}

static void mydev_task(void *data)
{
}

void mydev_irq(void)
{
	queue_task(&mydev_tq, &tq_mydev);
	mark_bh(MYDEV_BH);
}

int mydev_init(void)
{
	init_bh(MYDEV_BH, mydev_bh);
	return 0;
}

void mydev_exit(void)
{
	remove_bh(MYDEV_BH);
}

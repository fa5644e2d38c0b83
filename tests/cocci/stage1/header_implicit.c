/* Task queues came through <linux/interrupt.h>: <linux/workqueue.h> is added. */
#include <linux/module.h>
#include <linux/interrupt.h>

static void fn(void *);
static struct tq_struct tq = { routine: fn };

void kick(void)
{
	queue_task(&tq, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

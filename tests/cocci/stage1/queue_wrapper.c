/*
 * megaraid style: a compatibility macro that passes the queue through
 * (queue_task_irq) for older kernels.  Unused, it is nothing to convert;
 * a task queued through it stays on the 2.4 API, reported, while the
 * others convert.
 */
#include <linux/tqueue.h>

#define queue_task_irq(a,b)	queue_task(a,b)

static void mega_rx(void *data);
static void mega_cmd(void *data);

static struct tq_struct rx_tq = { routine: mega_rx };
static struct tq_struct cmd_tq = { routine: mega_cmd };

void mega_isr(void)
{
	queue_task_irq(&rx_tq, &tq_immediate);
	schedule_task(&cmd_tq);
}

/* The bus core: keeps the task a host registers and schedules it. */
#include <linux/tqueue.h>

static struct tq_struct *reset_task;

void hpsb_register_reset_task(struct tq_struct *t)
{
	reset_task = t;
}

void hpsb_bus_reset(void)
{
	if (reset_task)
		schedule_task(reset_task);
}

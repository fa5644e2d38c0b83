/* A custom bottom half with no task queue: reported, task code converts. */
#include <linux/interrupt.h>
#include <linux/tqueue.h>

static void my_bh(void);
static void my_task(void *);
static struct tq_struct my_tq = { routine: my_task };

void irq(void)
{
	mark_bh(SERIAL_BH);
	schedule_task(&my_tq);
}

int init(void)
{
	init_bh(SERIAL_BH, my_bh);
	return 0;
}

void exit(void)
{
	remove_bh(SERIAL_BH);
}

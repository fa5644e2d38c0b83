/*
 * 2.4's atari_NCR5380.c: a task whose routine takes no argument, cast to
 * the routine type, with comments in its GNU initializer, and also called
 * directly.
 */
#include <linux/tqueue.h>

static void NCR5380_main(void);
static int main_running;

static struct tq_struct NCR5380_tqueue = {
	routine:	(void (*)(void*))NCR5380_main,	/* must have (void *) arg... */
	data:		NULL
};

static void NCR5380_main(void)
{
	main_running = 1;
}

void NCR5380_kick(int in_irq)
{
	if (in_irq)
		queue_task(&NCR5380_tqueue, &tq_immediate);
	else
		NCR5380_main();
	mark_bh(IMMEDIATE_BH);
}

/*
 * Rule 2: a handler that takes no argument, cast to the old handler type,
 * as 2.4's atari_NCR5380.c did with NCR5380_main, and also called
 * directly; and one with the old empty parameter list, given data it
 * never saw.
 */
#include <linux/workqueue.h>

static void NCR5380_main(void);
static DECLARE_WORK(NCR5380_tqueue, (void (*)(void *))NCR5380_main, NULL);

struct qux {
	struct work_struct poll;
	int polls;
};

static int ncr_runs;

static void NCR5380_main(void)
{
	ncr_runs++;
}

static void qux_poll()
{
	ncr_runs--;
}

static void qux_start(struct qux *q, int in_irq)
{
	INIT_WORK(&q->poll, (void (*)(void *))qux_poll, q);
	if (in_irq)
		schedule_work(&NCR5380_tqueue);
	else
		NCR5380_main();
	schedule_work(&q->poll);
}

/*
 * The bottom half does more than run the queue: not the idiom stage 1 can
 * take apart; the file is reported and left as it is.
 */
#include <linux/interrupt.h>
#include <linux/tqueue.h>

static int bh_runs;
static void my_task(void *data);
static struct tq_struct my_tq = { routine: my_task };
static DECLARE_TASK_QUEUE(tq_my);

static void my_task(void *data)
{
}

static void my_bh(void)
{
	bh_runs++;
	run_task_queue(&tq_my);
}

void my_irq(void)
{
	queue_task(&my_tq, &tq_my);
	mark_bh(CYCLADES_BH);
}

int my_init(void)
{
	init_bh(CYCLADES_BH, my_bh);
	return 0;
}

void my_exit(void)
{
	remove_bh(CYCLADES_BH);
}

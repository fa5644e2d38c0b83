/*
 * The 2.4 serial idiom: a private queue run by the driver's own bottom half.
 * Each port's task becomes a work item of its own; the queue, the bottom
 * half and its function go.  The drain after remove_bh() becomes one flush.
 */
#include <linux/interrupt.h>
#include <linux/tqueue.h>

#define NR_PORTS 4

struct async_struct {
	int line;
	struct tq_struct tqueue;
};

static struct async_struct rs_table[NR_PORTS];
static DECLARE_TASK_QUEUE(tq_serial);
static void do_serial_bh(void);

static void do_softint(void *private_)
{
	struct async_struct *info = private_;

	info->line++;
}

static void do_serial_bh(void)
{
	run_task_queue(&tq_serial);
}

static void rs_sched_event(struct async_struct *info)
{
	if (!queue_task(&info->tqueue, &tq_serial))
		return;
	mark_bh(SERIAL_BH);
}

int rs_init(void)
{
	int i;

	for (i = 0; i < NR_PORTS; i++) {
		rs_table[i].tqueue.routine = do_softint;
		rs_table[i].tqueue.data = &rs_table[i];
	}
	init_bh(SERIAL_BH, do_serial_bh);
	return 0;
}

void rs_fini(void)
{
	remove_bh(SERIAL_BH);
	run_task_queue(&tq_serial);
}

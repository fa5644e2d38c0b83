/* Rule 7: the items of a file-scope array of ports, all initialised in a loop: the flush becomes a loop. */
#include <linux/interrupt.h>
#include <linux/workqueue.h>

#define NR_PORTS 4

struct async_struct {
	int line;
	struct work_struct tqueue;
};

static struct async_struct rs_table[NR_PORTS];

static void do_softint(void *private_)
{
	struct async_struct *info = private_;

	info->line++;
}

static void rs_sched_event(struct async_struct *info)
{
	if (!schedule_work(&info->tqueue))
		return;
}

int rs_init(void)
{
	int i;

	for (i = 0; i < NR_PORTS; i++) {
		INIT_WORK(&rs_table[i].tqueue, do_softint, &rs_table[i]);
	}
	return 0;
}

void rs_fini(void)
{
	flush_scheduled_work();
}

/* Only a run of tq_disk: reported, while the rest converts. */
#include <linux/tqueue.h>

static void flush_fn(void *);
static struct tq_struct flush_tq = { routine: flush_fn };

void wait_io(void)
{
	run_task_queue(&tq_disk);
	schedule_task(&flush_tq);
}

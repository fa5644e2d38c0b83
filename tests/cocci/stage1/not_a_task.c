/* schedule_task() given a number: sa1100fb.c in 2.4.18 wrote
 * schedule_task(200 * HZ / 1000) where it meant schedule_timeout().  The
 * call is reported and left as it is; the driver's real task converts. */
#include <linux/tqueue.h>
#include <linux/sched.h>

static struct tq_struct task;

static void power_up(void)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_task(200 * HZ / 1000);
	schedule_task(&task);
}


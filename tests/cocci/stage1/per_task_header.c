/*
 * Per task, not per file (a 2.4 serial driver in the style of cyclades.c):
 * the port's task lives in a kernel header this run cannot retype, so it
 * stays on the 2.4 API, with the calls that use it; the driver's own poll
 * task, declared here, converts.  Both build against the shim.
 */
#include <linux/sched.h>
#include <linux/tqueue.h>
#include <linux/foo_serial.h>

static struct tq_struct foo_poll_tq;

static void foo_softint(void *private_)
{
	struct foo_port *info = private_;

	info->event = 0;
}

static void foo_poll(void *unused)
{
}

static void foo_sched_event(struct foo_port *info)
{
	schedule_task(&info->tqueue);
}

static int foo_open(struct foo_port *info)
{
	info->tqueue.routine = foo_softint;
	info->tqueue.data = info;
	return 0;
}

static int __init foo_init(void)
{
	foo_poll_tq.routine = foo_poll;
	queue_task(&foo_poll_tq, &tq_timer);
	return 0;
}

static void __exit foo_exit(void)
{
	flush_scheduled_tasks();
}

/* GNU old-style designated initializers, 2.4's favourite. */
#include <linux/module.h>
#include <linux/tqueue.h>

static void probe_task(void *data);
static void poll_task(void *data);

static struct tq_struct probe_tq = {
	routine:	probe_task,
	data:		NULL,
};

struct tq_struct poll_tq = { routine: poll_task, data: &probe_tq };

/* Routine only: data was zero. */
static struct tq_struct lone_tq = { routine: (void (*)(void *))poll_task };

int start(void *arg)
{
	struct tq_struct local_tq = { routine: poll_task, data: arg };
	static struct tq_struct once_tq = {
		routine:	probe_task,
	};

	schedule_task(&local_tq);
	schedule_task(&once_tq);
	schedule_task(&lone_tq);
	return schedule_task(&probe_tq);
}

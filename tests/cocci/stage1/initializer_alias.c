/* Tasks declared through the driver's own names for the type (hostap's
 * HOSTAP_QUEUE), with initializers in the three styles: DECLARE_WORK()
 * as for struct tq_struct itself; 04 retypes the aliases. */
#include <linux/module.h>
#include <linux/tqueue.h>

#define DRV_TASK struct tq_struct
typedef struct tq_struct drv_task_t;

static void probe_task(void *data);
static void poll_task(void *data);

static DRV_TASK probe_tq = { routine: probe_task, data: NULL };
static drv_task_t poll_tq = { .routine = poll_task, .data = &probe_tq };
DRV_TASK lone_tq = { { NULL, NULL }, 0, poll_task, NULL };

int start(void)
{
	schedule_task(&lone_tq);
	schedule_task(&poll_tq);
	return schedule_task(&probe_tq);
}

/* Return-value idioms keep their meaning: nonzero when newly queued. */
#include <linux/module.h>
#include <linux/tqueue.h>

static void hotplug_task(void *data);
static struct tq_struct hotplug_tq = { routine: hotplug_task };

void hotplug_event(void)
{
	MOD_INC_USE_COUNT;
	if (schedule_task(&hotplug_tq) == 0)
		MOD_DEC_USE_COUNT;
}

int hotplug_kick(void)
{
	if (!schedule_task(&hotplug_tq))
		return -EBUSY;
	return 0;
}

void cleanup_module(void)
{
	flush_scheduled_tasks();
}

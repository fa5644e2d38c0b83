/* Positional task initializers inside an enclosing structure's: the
 * braces are emptied so that the elements after them keep their fields. */
#include <linux/module.h>
#include <linux/tqueue.h>

struct unit {
	const char *name;
	struct tq_struct task;
	int ran, flags;
	struct tq_struct last;
};

static void unit_routine(void *data)
{
	((struct unit *)data)->ran++;
}

static struct unit unit0 = {
	"unit0",
	{ { NULL, NULL }, 0, unit_routine, &unit0 },
	0, 1,
	{ {NULL, NULL}, 0, unit_routine, NULL }
};

static int __init unit_init(void)
{
	queue_task(&unit0.task, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	schedule_task(&unit0.last);
	return 0;
}

static void __exit unit_exit(void)
{
	flush_scheduled_tasks();
}

module_init(unit_init);
module_exit(unit_exit);

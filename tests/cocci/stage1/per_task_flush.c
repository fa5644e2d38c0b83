/*
 * One flush for both kinds: the tasks of a partly converted file that were
 * scheduled with schedule_task() now run in two places, the shim's 2.4
 * keventd (the one kept, sent to another module's hook) and the work
 * queue (the one converted): flush_scheduled_tasks() stays and
 * flush_scheduled_work() follows it.
 */
#include <linux/module.h>
#include <linux/tqueue.h>

static void hook_task(void *data)
{
}

static void stat_task(void *data)
{
}

static struct tq_struct hook_tq = { routine: hook_task };
static struct tq_struct stat_tq = { routine: stat_task };

void ext_register_hook(struct tq_struct *tq);

static int __init dev_init(void)
{
	ext_register_hook(&hook_tq);
	schedule_task(&hook_tq);
	schedule_task(&stat_tq);
	return 0;
}

static void __exit dev_exit(void)
{
	flush_scheduled_tasks();
}

module_init(dev_init);
module_exit(dev_exit);

/*
 * A task that re-arms itself on tq_timer; the exit path sets a flag and
 * runs tq_timer, which on 2.4 ran the task now (it saw the flag), then
 * frees what the task uses.  The call becomes flush_scheduled_work(),
 * which does not run a task whose tick has not come: W026 says so.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/tqueue.h>

static int stopping;
static int *ticks;

static void tick_fn(void *data);
static struct tq_struct tick_task = { routine: tick_fn };

static void tick_fn(void *data)
{
	(*ticks)++;
	if (!stopping)
		queue_task(&tick_task, &tq_timer);
}

static int __init tick_init(void)
{
	ticks = kmalloc(sizeof(*ticks), GFP_KERNEL);
	if (!ticks)
		return -ENOMEM;
	*ticks = 0;
	queue_task(&tick_task, &tq_timer);
	return 0;
}

static void __exit tick_exit(void)
{
	stopping = 1;
	run_task_queue(&tq_timer);
	kfree(ticks);
}

module_init(tick_init);
module_exit(tick_exit);

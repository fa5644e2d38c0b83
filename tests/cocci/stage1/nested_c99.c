/* C99 designated task initializers inside an enclosing structure's. */
#include <linux/module.h>
#include <linux/tqueue.h>

struct dev {
	const char *name;
	struct tq_struct task;
	int count;
};

static void dev_routine(void *data)
{
	((struct dev *)data)->count++;
}

static struct dev dev_a = {
	.name	= "a",
	.task	= { .routine = dev_routine, .data = &dev_a },
	.count	= 0,
};

static struct dev dev_b = { .task = { .routine = dev_routine }, .name = "b" };

static int __init dev_init(void)
{
	schedule_task(&dev_a.task);
	schedule_task(&dev_b.task);
	return 0;
}

module_init(dev_init);

/* A wrapper whose work parameter has the driver's typedef hands it to a
 * delayed-call macro: no item the run converts. */
#include <linux/module.h>
#include <linux/workqueue.h>

typedef struct work_struct my_work_t;
#define QLATER(...) schedule_delayed_work(__VA_ARGS__)

static my_work_t tick;

static void tick_fn(void *data)
{
}

static void later(my_work_t *w)
{
	QLATER(w, HZ);
}

static int __init t_init(void)
{
	INIT_WORK(&tick, tick_fn, NULL);
	later(&tick);
	return 0;
}

module_init(t_init);
MODULE_LICENSE("GPL");

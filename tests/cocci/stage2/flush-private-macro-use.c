/* Rule 7: the system workqueue reached through a driver macro, whose
 * first user comes before the other uses: the private workqueue is
 * declared before that user, not only before the first direct call
 * (found by the fuzzer: the body became queue_work(wq, ...) with wq
 * declared below the function that expands it). */
#include <linux/workqueue.h>

#define DRV_SCHEDULE_WORK(...) schedule_work(__VA_ARGS__)

struct drv {
	struct work_struct w;
	int n;
};

static struct drv d;

static void drv_fn(void *data)
{
	struct drv *p = data;

	p->n++;
}

void drv_kick(void)
{
	DRV_SCHEDULE_WORK(&d.w);
}

static int __init drv_init(void)
{
	INIT_WORK(&d.w, drv_fn, &d);
	return 0;
}

static void __exit drv_exit(void)
{
	flush_scheduled_work();
}

module_init(drv_init);
module_exit(drv_exit);
MODULE_LICENSE("GPL");

/* Rule 1: a typedef of struct work_struct shared by an item used as plain
 * work and one used with delayed calls: the typedef cannot change, and
 * the delayed one is reported with its typedef, not as declared in a
 * header (issue found by fuzzing). */
#include <linux/module.h>
#include <linux/workqueue.h>

typedef struct work_struct drv_work_t;

struct drv {
	drv_work_t a;
	drv_work_t b;
	int n;
};

static struct drv d;

static void drv_a(void *data)
{
	struct drv *p = data;

	p->n++;
}

static void drv_b(void *data)
{
	struct drv *p = data;

	p->n--;
}

void drv_kick(void)
{
	schedule_work(&d.a);
	schedule_delayed_work(&d.b, HZ);
}

static int __init drv_init(void)
{
	INIT_WORK(&d.a, drv_a, &d);
	INIT_WORK(&d.b, drv_b, &d);
	return 0;
}

static void __exit drv_exit(void)
{
	cancel_delayed_work(&d.b);
	flush_scheduled_work();
}

module_init(drv_init);
module_exit(drv_exit);
MODULE_LICENSE("GPL");

/* A driver macro forwarding to a delayed call, given a pointer: W101 stays. */
#include <linux/module.h>
#include <linux/workqueue.h>

#define LATER(w) schedule_delayed_work(w, HZ)

static struct work_struct a;

static void fa(void *d)
{
}

void go(struct work_struct *p)
{
	INIT_WORK(&a, fa, NULL);
	LATER(p);
}
MODULE_LICENSE("GPL");

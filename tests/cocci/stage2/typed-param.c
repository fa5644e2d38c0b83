/* Rule 2/3: a handler typed on its data, registered through a cast. */
#include <linux/workqueue.h>

struct bar {
	int state;
	struct work_struct work;
};

static void bar_work(struct bar *bar)
{
	bar->state++;
}

static struct bar the_bar;

static void bar_setup(struct bar *b)
{
	INIT_WORK(&b->work, (void *)bar_work, b);
	INIT_WORK(&the_bar.work, (void (*)(void *))bar_work, &the_bar);
}

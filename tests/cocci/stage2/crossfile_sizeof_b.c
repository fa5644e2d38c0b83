/* After crossfile_sizeof_a.c in one spatch run: the single instance is flushed as when alone, not given a private queue. */
#include <linux/workqueue.h>
struct my_dev {
	int x;
	struct work_struct w;
};
static struct my_dev the_dev;

static void h(struct work_struct *work)
{
}

static void kick(struct my_dev *p)
{
	schedule_work(&p->w);
}

static int __init b_init(void)
{
	INIT_WORK(&the_dev.w, h);
	kick(&the_dev);
	return 0;
}

static void __exit b_exit(void)
{
	flush_scheduled_work();
}
module_init(b_init);
module_exit(b_exit);

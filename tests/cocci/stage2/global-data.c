/* Rule 4: the data is a global: the handler uses it directly (as ds1374). */
#include <linux/workqueue.h>

static unsigned long new_time;
static struct { int a; } cfg;

static void set_work(void *arg)
{
	unsigned long t = *(unsigned long *)arg;

	printk("%lu\n", t);
}

static void cfg_work(void *arg)
{
	int *a = &((typeof(cfg) *)arg)->a;

	(*a)++;
}

static DECLARE_WORK(set_item, set_work, &new_time);
static struct work_struct cfg_item;

static int set_time(unsigned long t)
{
	new_time = t;
	INIT_WORK(&cfg_item, cfg_work, &cfg);
	if (in_interrupt())
		schedule_work(&set_item);
	else
		set_work(&new_time);
	return 0;
}

/* A handler that flushes the queue it runs on, through a helper (bcm43xx
 * 2006: reset -> free_board -> flush_workqueue(bcm->workqueue)): 2.6 ran
 * the queue by hand, a modern kernel waits for the handler itself. */
#include <linux/module.h>
#include <linux/workqueue.h>

struct sf_dev {
	struct workqueue_struct *wq;
	struct work_struct reset_work;
	int resets;
};

static struct sf_dev sf0;

static void sf_free_board(struct sf_dev *d)
{
	flush_workqueue(d->wq);
}

static void sf_reset(void *data)
{
	struct sf_dev *d = data;

	d->resets++;
	sf_free_board(d);
}

static int __init sf_init(void)
{
	sf0.wq = create_singlethread_workqueue("sf");
	INIT_WORK(&sf0.reset_work, sf_reset, &sf0);
	queue_work(sf0.wq, &sf0.reset_work);
	return 0;
}

static void __exit sf_exit(void)
{
	destroy_workqueue(sf0.wq);
}

module_init(sf_init);
module_exit(sf_exit);

/* A plain work item in a field named work, of an array's elements (as the
 * LWN article's sample and many 2.6 drivers name it): &d->steps[i].work is
 * that field, not the work_struct inside a delayed item "steps". */
#include <linux/module.h>
#include <linux/workqueue.h>

struct wf_step {
	struct work_struct work;
	int nr;
};

static struct wf_dev {
	struct wf_step steps[4];
	struct workqueue_struct *wq;
} wf;

static void wf_step_fn(void *data)
{
	struct wf_step *step = data;

	step->nr++;
}

static int __init wf_init(void)
{
	int i;

	wf.wq = create_singlethread_workqueue("wf");
	if (!wf.wq)
		return -ENOMEM;
	for (i = 0; i < 4; i++) {
		INIT_WORK(&wf.steps[i].work, wf_step_fn, &wf.steps[i]);
		queue_work(wf.wq, &wf.steps[i].work);
	}
	return 0;
}

static void __exit wf_exit(void)
{
	destroy_workqueue(wf.wq);
}

module_init(wf_init);
module_exit(wf_exit);

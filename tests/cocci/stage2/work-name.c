/* The handler already uses the name `work` (here a global item, in 2.6.18's
 * infiniband cm.c a local `struct cm_work *work = data;`): the new
 * parameter is `_work`, as 2.6.20's humans named it.  A handler that uses
 * `_work` too is reported. */
#include <linux/workqueue.h>

struct cm_work {
	struct work_struct work;
	int event;
};

static void poll(void *data);
static DECLARE_WORK(work, poll, NULL);

static void poll(void *data)
{
	schedule_work(&work);
}

static void cm_handler(void *data)
{
	struct cm_work *work = data;

	work->event = 0;
}

static void cm_post(struct cm_work *w)
{
	INIT_WORK(&w->work, cm_handler, w);
	schedule_work(&w->work);
}

static struct work_struct _work;

static void both(void *data)
{
	struct work_struct *work = data;

	schedule_work(work);
	schedule_work(&_work);
}

static void both_post(void)
{
	INIT_WORK(&_work, both, &_work);
}

/*
 * Two structures of one file call their item work; only struct poller's
 * is used with delayed calls.  struct other's stays a work_struct, with
 * its plain calls (schedule_work, queue_work, work_pending) and its item
 * handed on as it is: no item.  (The plain calls come after the file's
 * structure changed, where a position no longer gives the line the facts
 * recorded: the calls were once made delayed by that.)
 */
#include <linux/workqueue.h>

struct poller {
	int n;
	struct work_struct work;
};

struct other {
	int m;
	struct work_struct work;
};

static struct workqueue_struct *wq;

static void poll_fn(void *data)
{
	struct poller *p = data;

	p->n++;
	schedule_delayed_work(&p->work, HZ);
}

static void other_fn(void *data)
{
	struct other *o = data;

	o->m++;
}

extern void take_work(struct work_struct *w);

void setup(struct poller *p, struct other *o)
{
	INIT_WORK(&p->work, poll_fn, p);
	INIT_WORK(&o->work, other_fn, o);
	schedule_delayed_work(&p->work, HZ);
	schedule_work(&o->work);
	if (!work_pending(&o->work))
		queue_work(wq, &o->work);
	take_work(&o->work);
}

/* Rule 7: workqueue creation, rearming cancels, cancel-then-flush. */
#include <linux/workqueue.h>

struct ctl {
	struct workqueue_struct *wq, *swq;
	struct work_struct mon;
	struct work_struct ev;
};

static void mon_fn(void *data)
{
	struct ctl *c = data;

	queue_delayed_work(c->wq, &c->mon, HZ);
}

static void ev_fn(void *data)
{
	struct ctl *c = data;

	(void)c;
}

static int ctl_start(struct ctl *c, const char *name)
{
	c->wq = create_workqueue("ctl");
	c->swq = create_singlethread_workqueue(name);
	INIT_WORK(&c->mon, mon_fn, c);
	INIT_WORK(&c->ev, ev_fn, c);
	queue_work(c->swq, &c->ev);
	queue_delayed_work(c->wq, &c->mon, HZ);
	return 0;
}

static void ctl_pause(struct ctl *c)
{
	if (!cancel_delayed_work(&c->mon))
		flush_workqueue(c->wq);
}

static void ctl_stop(struct ctl *c)
{
	cancel_rearming_delayed_workqueue(c->wq, &c->mon);
	destroy_workqueue(c->wq);
	destroy_workqueue(c->swq);
}

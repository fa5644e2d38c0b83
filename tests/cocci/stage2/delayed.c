/* Rule 1 with rule 3: a delayed item; plain queueing gets delay 0. */
#include <linux/workqueue.h>

struct poll {
	struct workqueue_struct *wq;
	struct work_struct poll_work;
	struct work_struct irq_work;
	int ticks;
};

static void poll_fn(void *data)
{
	struct poll *p = data;

	p->ticks++;
	queue_delayed_work(p->wq, &p->poll_work, HZ);
}

static void irq_fn(void *data)
{
	struct poll *p = data;

	p->ticks = 0;
}

static void poll_start(struct poll *p)
{
	INIT_WORK(&p->poll_work, poll_fn, p);
	INIT_WORK(&p->irq_work, irq_fn, p);
	queue_work(p->wq, &p->poll_work);
	if (!work_pending(&p->poll_work))
		queue_work(p->wq, &p->irq_work);
}

static void poll_stop(struct poll *p)
{
	cancel_delayed_work(&p->poll_work);
	flush_workqueue(p->wq);
}

/* Rule 6: PREPARE_WORK after a flush of the only queue the item is ever
 * queued on, on every path, the item queued nowhere else: INIT_WORK.
 * Reported where a path skips the flush, where the item is queued after it,
 * on two queues, or in another function. */
#include <linux/workqueue.h>

struct m {
	struct workqueue_struct *wq;
	struct workqueue_struct *wq2;
	struct work_struct msg;		/* converted */
	struct work_struct cond;	/* a path without flush */
	struct work_struct twice;	/* two queues */
	struct work_struct other;	/* queued in another function */
	int state;
};

static void first(void *data)
{
	struct m *m = data;

	m->state = 1;
}

static void second(void *data)
{
	struct m *m = data;

	m->state = 2;
}

static void c1(void *data)
{
	struct m *m = data;

	m->state = 3;
}

static void c2(void *data)
{
	struct m *m = data;

	m->state = 4;
}

static void t1(void *data)
{
	struct m *m = data;

	m->state = 5;
}

static void t2(void *data)
{
	struct m *m = data;

	m->state = 6;
}

static void o1(void *data)
{
	struct m *m = data;

	m->state = 7;
}

static void o2(void *data)
{
	struct m *m = data;

	m->state = 8;
}

static void m_init(struct m *m)
{
	INIT_WORK(&m->msg, first, m);
	INIT_WORK(&m->cond, c1, m);
	INIT_WORK(&m->twice, t1, m);
	INIT_WORK(&m->other, o1, m);
}

static void m_msg(struct m *m)
{
	queue_work(m->wq, &m->msg);
	flush_workqueue(m->wq);
	PREPARE_WORK(&m->msg, second, m);
	queue_work(m->wq, &m->msg);
	flush_workqueue(m->wq);
	PREPARE_WORK(&m->msg, first, m);
}

static void m_cond(struct m *m, int x)
{
	queue_work(m->wq, &m->cond);
	if (x)
		flush_workqueue(m->wq);
	PREPARE_WORK(&m->cond, c2, m);
	queue_work(m->wq, &m->cond);
	flush_workqueue(m->wq);
	queue_work(m->wq, &m->cond);
	PREPARE_WORK(&m->cond, c1, m);
}

static void m_twice(struct m *m)
{
	queue_work(m->wq, &m->twice);
	queue_work(m->wq2, &m->twice);
	flush_workqueue(m->wq);
	PREPARE_WORK(&m->twice, t2, m);
}

static void m_other(struct m *m)
{
	flush_workqueue(m->wq);
	PREPARE_WORK(&m->other, o2, m);
	queue_work(m->wq, &m->other);
}

static void m_kick(struct m *m)
{
	queue_work(m->wq, &m->other);
}

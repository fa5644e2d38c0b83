/* A handler written with its address (2.6.18 connector/cn_queue.c:
 * INIT_WORK(&cbq->work, &cn_queue_wrapper, &cbq->data)): the same function,
 * converted as by its name; the & goes, as 2.6.20 wrote it. */
#include <linux/workqueue.h>

struct cbq {
	struct work_struct work;
	int n;
};

static void cbq_run(void *data)
{
	struct cbq *q = data;

	q->n++;
}

static void cbq_stat(void *data);
static DECLARE_WORK(stat_work, &cbq_stat, NULL);

static void cbq_stat(void *data)
{
}

void cbq_init(struct cbq *q)
{
	INIT_WORK(&q->work, &cbq_run, q);
	schedule_work(&q->work);
	schedule_work(&stat_work);
}

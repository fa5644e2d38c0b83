/* Requeue-yourself on tq_timer polling, and draining it with run_task_queue. */
#include <linux/tqueue.h>

struct host {
	struct tq_struct poll_tq;
	int stop;
};

static void host_poll(void *data)
{
	struct host *h = data;

	if (!h->stop)
		queue_task(&h->poll_tq, &tq_timer);
}

int host_start(struct host *h)
{
	INIT_TQUEUE(&h->poll_tq, host_poll, h);
	return queue_task(&h->poll_tq, &tq_timer);
}

void host_stop(struct host *h)
{
	h->stop = 1;
	run_task_queue(&tq_timer);
}

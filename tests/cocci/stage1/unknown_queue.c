/* A task queued on a queue of another subsystem's structure (2.4.18's
 * sbp2.c: a request's task on the ieee1394 packet's complete_tq, run by
 * the bus driver's bottom half): no workqueue call replaces it.  The item
 * names the task as well as the queue; the file stays as it is. */
#include <linux/tqueue.h>

struct request {
	struct tq_struct tq;
};

struct packet {
	task_queue complete_tq;
};

static void request_free(void *data)
{
}

void request_send(struct request *req, struct packet *pkt)
{
	req->tq.routine = request_free;
	req->tq.data = req;
	queue_task(&req->tq, &pkt->complete_tq);
}

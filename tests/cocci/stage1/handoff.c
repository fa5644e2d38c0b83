/* A tq_struct handed to code outside the task-queue family. */
#include <linux/tqueue.h>

extern void ieee1394_register_task(struct tq_struct *t);

struct host {
	struct tq_struct tq;
};

static void host_task(void *);

void host_init(struct host *h)
{
	INIT_TQUEUE(&h->tq, host_task, h);
	ieee1394_register_task(&h->tq);
}

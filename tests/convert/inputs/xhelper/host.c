/* A host driver hands its task to a registration helper of the bus core
 * (2.4 ieee1394's style), which the same run converts (hpsb.c). */
#include <linux/tqueue.h>

extern void hpsb_register_reset_task(struct tq_struct *t);

struct host {
	struct tq_struct reset_tq;
};

static void host_reset(void *data);

void host_init(struct host *h)
{
	INIT_TQUEUE(&h->reset_tq, host_reset, h);
	hpsb_register_reset_task(&h->reset_tq);
}

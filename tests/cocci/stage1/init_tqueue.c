/* INIT_TQUEUE and PREPARE_TQUEUE, on fields, pointers and array elements. */
#include <linux/tqueue.h>

struct port {
	int line;
	struct tq_struct tqueue;
	struct tq_struct hangup;
	struct tq_struct per_chan[4];
};

static void port_softint(void *data);
static void port_hangup(void *data);

void port_setup(struct port *p, struct tq_struct *extra)
{
	int i;

	INIT_TQUEUE(&p->tqueue, port_softint, p);
	INIT_TQUEUE(&p->hangup, port_hangup, (void *)p);
	for (i = 0; i < 4; i++)
		INIT_TQUEUE(&p->per_chan[i], port_softint, p);
	PREPARE_TQUEUE(extra, port_hangup, NULL);
}

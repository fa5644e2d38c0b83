/* A task queued but never set up (a 2.4 vendor driver's kevent). */
#include <linux/tqueue.h>

struct priv {
	unsigned long flags;
	struct tq_struct kevent;	/* routine never set anywhere */
	struct tq_struct reset;		/* set up by the driver's own macro */
};

#define PRIV_QUEUE_INIT(t, f, d) INIT_TQUEUE(t, f, d)

static void priv_reset(void *data)
{
}

void priv_setup(struct priv *p)
{
	PRIV_QUEUE_INIT(&p->reset, priv_reset, p);
}

void defer_kevent(struct priv *p, int flag)
{
	set_bit(flag, &p->flags);
	schedule_task(&p->kevent);
	schedule_task(&p->reset);
}

/* Open-coded initialisation, as drivers/net/plip.c and usb/acm.c did it. */
#include <linux/tqueue.h>

struct local {
	struct tq_struct immediate;
	struct tq_struct deferred;
	struct tq_struct timer;
	struct tq_struct softint;
};

static void plip_bh(void *);
static void plip_kick_bh(void *);

void setup(struct local *nl, void *dev, int irq)
{
	INIT_LIST_HEAD(&nl->immediate.list);
	nl->immediate.sync = 0;
	nl->immediate.routine = (void (*)(void *))plip_bh;
	nl->immediate.data = dev;

	nl->deferred.data = dev;
	nl->deferred.routine = plip_kick_bh;

	if (irq == -1) {
		INIT_LIST_HEAD(&nl->timer.list);
		nl->timer.sync = 0;
		nl->timer.routine = plip_bh;
		nl->timer.data = dev;
	}

	nl->softint.routine = plip_kick_bh;
}

void setup_ptr(struct tq_struct *t, void *dev)
{
	t->routine = plip_bh;
	t->data = dev;
}

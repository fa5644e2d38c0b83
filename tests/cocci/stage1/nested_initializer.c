/* A task initialised inside another structure's initializer (ppa.c style). */
#include <linux/tqueue.h>

struct host {
	int base;
	struct tq_struct tq;
};

static void host_interrupt(void *);

#define HOST_EMPTY {	base:	-1,	\
	tq:	{ routine: host_interrupt },	\
}

static struct host hosts[2] = { HOST_EMPTY, HOST_EMPTY };

void host_poll(int i)
{
	queue_task(&hosts[i].tq, &tq_timer);
}

/*
 * Task fields set in a macro's do { } while (0) body, a line each, joined
 * by backslashes, as 2.4 drivers wrapped their per-port set-up: the routine
 * and data stores of one task become one INIT_WORK() (02 cannot type the
 * macro's argument), in either order; a data store's line goes with it.
 */
#include <linux/tqueue.h>

struct port {
	struct tq_struct tqueue;
	struct tq_struct hangup;
	int events;
};

static void port_softint(void *private_)
{
	struct port *info = private_;

	info->events++;
}

static void port_hangup(void *private_)
{
	struct port *info = private_;

	info->events = 0;
}

#define PORT_INIT_TASKS(info) do {				\
	(info)->tqueue.routine = port_softint;			\
	(info)->tqueue.data = (info);				\
	(info)->hangup.data = info;				\
	(info)->hangup.routine = port_hangup;			\
} while (0)

static int port_open(struct port *info)
{
	PORT_INIT_TASKS(info);
	queue_task(&info->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	schedule_task(&info->hangup);
	return 0;
}

/*
 * A local task initialised only to be copied into the driver's own, as
 * 2.4.27's baycom_epp.c did in epp_open(): the copy becomes INIT_WORK()
 * and the local goes.
 */
#include <linux/tqueue.h>

struct epp_state {
	int running;
	struct tq_struct run_bh;
};

static void epp_bh(void *data);

static int epp_open(struct epp_state *bc, void *dev)
{
	const struct tq_struct run_bh = {
		routine: (void *)(void *)epp_bh,
		data: dev
	};
	int i;

	for (i = 0; i < 2; i++)
		bc->running = i;
	bc->run_bh = run_bh;
	schedule_task(&bc->run_bh);
	return 0;
}

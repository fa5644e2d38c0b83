/*
 * PREPARE_TQUEUE as the task's only initialisation (2.4's ns83820.c): it
 * converts to PREPARE_WORK as written, and is reported: 2.6 wants INIT_WORK
 * before the first queueing.  A task that INIT_TQUEUE initialised is not.
 */
#include <linux/tqueue.h>

struct nic {
	struct tq_struct tq_refill;
	struct tq_struct tq_reset;
};

static void nic_refill(void *data)
{
}

static void nic_reset(void *data)
{
}

int nic_probe(struct nic *dev)
{
	PREPARE_TQUEUE(&dev->tq_refill, nic_refill, dev);
	INIT_TQUEUE(&dev->tq_reset, nic_reset, dev);
	return 0;
}

void nic_rx(struct nic *dev)
{
	schedule_task(&dev->tq_refill);
}

void nic_error(struct nic *dev)
{
	PREPARE_TQUEUE(&dev->tq_reset, nic_reset, dev);
	schedule_task(&dev->tq_reset);
}

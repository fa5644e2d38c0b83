/* A tq_timer routine taking the device's lock with plain spin_lock(), as
 * a bottom half could: the _bh taker is the driver's other file. */
#include "xb.h"

static void xb_tick(void *data)
{
	struct xb_dev *dev = data;

	spin_lock(&dev->lock);
	dev->ticks++;
	spin_unlock(&dev->lock);
	queue_task(&dev->tick, &tq_timer);
}

void xb_start(struct xb_dev *dev)
{
	INIT_TQUEUE(&dev->tick, xb_tick, dev);
	queue_task(&dev->tick, &tq_timer);
}

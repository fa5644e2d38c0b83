/* The watchdog is queued only through the wrapper. */
#include "xw.h"

static void xw_watchdog(void *data)
{
	struct xw_dev *dev = data;

	dev->barks++;
	xw_queue_delayed(dev, &dev->watchdog, 2 * HZ);
}

void xw_start(struct xw_dev *dev)
{
	INIT_WORK(&dev->watchdog, xw_watchdog, dev);
	xw_queue_delayed(dev, &dev->watchdog, 2 * HZ);
}

/* The refresh item is queued only through the wrapper. */
#include "wm.h"

static void wm_refresh(void *data)
{
	struct wm_dev *dev = data;

	if (++dev->refreshes < 100)
		wm_later(dev, &dev->refresh, HZ);
}

void wm_start(struct wm_dev *dev)
{
	INIT_WORK(&dev->refresh, wm_refresh, dev);
	wm_later(dev, &dev->refresh, HZ);
}

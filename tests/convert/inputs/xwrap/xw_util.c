/* The wrapper: every caller passes one of the device's items. */
#include "xw.h"

void xw_queue_delayed(struct xw_dev *dev, struct work_struct *work,
		      unsigned long delay)
{
	queue_delayed_work(dev->wq, work, delay);
}

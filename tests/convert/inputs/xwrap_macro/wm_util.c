/* The wrapper: it hands its parameter to the macro. */
#include "wm.h"

void wm_later(struct wm_dev *dev, struct work_struct *work, unsigned long delay)
{
	WM_QUEUE_DELAYED(dev->wq, work, delay);
}

/* A driver whose wrapper function queues through the driver's own macro. */
#include <linux/workqueue.h>

#define WM_QUEUE_DELAYED(...) queue_delayed_work(__VA_ARGS__)

struct wm_dev {
	struct workqueue_struct *wq;
	struct work_struct refresh;
	int refreshes;
};

void wm_later(struct wm_dev *dev, struct work_struct *work, unsigned long delay);

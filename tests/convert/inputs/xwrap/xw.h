/* A vendor driver's header: its wrapper of queue_delayed_work() is
 * declared here, defined in xw_util.c and used in xw_main.c. */
#include <linux/workqueue.h>

struct xw_dev {
	struct workqueue_struct *wq;
	struct work_struct watchdog;
	int barks;
};

void xw_queue_delayed(struct xw_dev *dev, struct work_struct *work,
		      unsigned long delay);

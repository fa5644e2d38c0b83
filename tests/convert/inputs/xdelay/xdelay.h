/* A 2.6.18 driver's header: its poll item is delayed work only in xdelay.c,
 * which is converted in the same run, so it changes type here too. */
#include <linux/workqueue.h>

struct xd_dev {
	struct workqueue_struct *wq;
	struct work_struct poll;
	int polls;
};

#include <linux/workqueue.h>

struct ccw_priv {
	int state;
	struct work_struct kick_work;
};

extern struct workqueue_struct *ccw_wq;

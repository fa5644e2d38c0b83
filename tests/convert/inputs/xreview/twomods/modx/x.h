#include <linux/workqueue.h>
struct xdev {
	int state;
	struct work_struct reset;
};
void reset_task(void *data);

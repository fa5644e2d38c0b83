#include <linux/workqueue.h>
struct drv {
	int state;
	struct work_struct poll;
};
void drv_poll(void *data);

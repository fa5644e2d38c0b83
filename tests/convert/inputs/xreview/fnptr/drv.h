#include <linux/workqueue.h>
struct drv {
	int state;
	struct work_struct reset;
};
void drv_reset_task(void *data);

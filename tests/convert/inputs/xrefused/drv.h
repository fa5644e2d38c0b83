#include <linux/workqueue.h>
struct drv {
	struct work_struct w;
	char pad[16] __attribute__((aligned(16)));
};
void drv_task(void *data);

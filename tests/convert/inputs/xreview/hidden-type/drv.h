#include <linux/workqueue.h>
struct drv;
void drv_reset_task(void *data);
void drv_hw_reset(struct drv *d);

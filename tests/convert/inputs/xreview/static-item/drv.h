#include <linux/workqueue.h>
void drv_task(void *data);

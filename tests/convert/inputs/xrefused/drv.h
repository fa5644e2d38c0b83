#include <linux/workqueue.h>
struct drv {
	struct work_struct w;
	char pad[16] DRV_PAD_ALIGN;	/* a macro of another header */
};
void drv_task(void *data);

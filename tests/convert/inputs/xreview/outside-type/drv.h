/* struct drv comes from a header outside the run, as libata's ata_port. */
#include <linux/workqueue.h>
#include <linux/drv_type.h>

void drv_reset_task(void *data);

/* A 2.4 driver's own header: the device structure holds the task. */
#include <linux/tqueue.h>

struct hdrdrv_dev {
	int events;
	struct tq_struct tqueue;
};

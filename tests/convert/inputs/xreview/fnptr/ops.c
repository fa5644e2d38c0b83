#include "drv.h"

struct drv_ops {
	void (*reset)(void *data);
};

const struct drv_ops drv_ops = {
	.reset = drv_reset_task,
};

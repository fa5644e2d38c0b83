#include "drv_hw.h"
struct kdev {
	struct tq_struct task;
	int hits;
};

/* The driver's header: its name for an exported function. */
#include <linux/workqueue.h>

#define WRAP_EXPORT(x) x

struct foo {
	struct work_struct w;
	int n;
};

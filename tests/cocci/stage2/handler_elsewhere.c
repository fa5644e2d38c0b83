/*
 * A handler defined in another file of the driver, registered here through
 * its extern prototype (2.6 drivers split across foo_main.c and foo_hw.c):
 * its signature must change in that file, so the registration is reported
 * (W105) and left as it is.
 */
#include <linux/workqueue.h>

struct foo {
	struct work_struct reset_task;
	int resets;
};

extern void foo_reset_task(void *data);

int foo_probe(struct foo *foo)
{
	INIT_WORK(&foo->reset_task, foo_reset_task, foo);
	schedule_work(&foo->reset_task);
	return 0;
}

/* The top of a kernel tree (the command is run from there): a driver whose
 * own header includes another, which stage 1 has spatch read with
 * --recursive-includes.  spatch looks for <...> in ./include when given no
 * -I, and rewrote this header in place with the driver. */
#include <linux/tqueue.h>
#include <linux/kq.h>
#include "drv.h"

static void kdev_task(void *data)
{
	struct kdev *d = data;

	d->hits++;
}

void kdev_start(struct kdev *d)
{
	INIT_TQUEUE(&d->task, kdev_task, d);
	schedule_task(&d->task);
}

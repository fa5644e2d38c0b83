/*
 * A delayed item whose struct work_struct is declared in a header this
 * file does not hold (a vendor driver's buf->refill): it cannot become
 * struct delayed_work here, so it is reported, naming the field, and left.
 */
#include <linux/workqueue.h>
#include "vbuf.h"

static void vbuf_refill(void *data)
{
}

void vbuf_start(struct vbuf *buf)
{
	INIT_WORK(&buf->refill, vbuf_refill, NULL);
	schedule_delayed_work(&buf->refill, HZ / 10);
}

/* Delayed work on a field of <linux/vendor_buf.h>, a header outside the
 * run: reported with the field and the header, not retyped here alone. */
#include <linux/workqueue.h>
#include <linux/vendor_buf.h>

static void vbuf_refill(void *data)
{
}

void vbuf_start(struct vbuf *buf)
{
	INIT_WORK(&buf->refill, vbuf_refill, NULL);
	schedule_delayed_work(&buf->refill, HZ / 10);
}

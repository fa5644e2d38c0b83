/* Delayed work on a field of <linux/vendor_buf.h>, reached through the
 * driver's own header "vbuf_priv.h", which is not in the run
 * (Broadcom's brcmnand_cet.c: "brcmnand_priv.h", then
 * <linux/mtd/brcmnand.h>): given to the run, the header is converted. */
#include <linux/workqueue.h>
#include "vbuf_priv.h"

static void vbuf_via_refill(void *data)
{
}

void vbuf_via_start(struct vbuf *buf)
{
	INIT_WORK(&buf->refill, vbuf_via_refill, NULL);
	schedule_delayed_work(&buf->refill, HZ / 10);
}

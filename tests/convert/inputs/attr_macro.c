#include <linux/module.h>
#include <linux/workqueue.h>
#include "attr_macro.h"

/* A driver's own name for an attribute, used after its fields */
#define __RING_ALIGN__	__attribute__((__aligned__(L1_CACHE_BYTES)))

struct ring {
	u32 desc[16] __RING_ALIGN__;
	u32 status DRV_DMA_ALIGN;
	struct work_struct work;
	int count;
};

/* An attribute with arguments after a plain declarator */
static int ring_debug __attribute__((section(".data.ring"))) = 1;

static void ring_work(void *data)
{
	struct ring *r = data;

	r->count += ring_debug;
}

static void ring_setup(struct ring *r)
{
	INIT_WORK(&r->work, ring_work, r);
	schedule_work(&r->work);
}

/* The pending field of 2.6.0-2.6.19 (mISDN's bchannel.c tested it). */
#include <linux/workqueue.h>

struct chan {
	struct work_struct work;
	int busy;
};

static void chan_bh(void *data)
{
	struct chan *ch = data;

	ch->busy = 0;
}

static void chan_setup(struct chan *ch, struct work_struct *wp)
{
	INIT_WORK(&ch->work, chan_bh, ch);
	if (ch->work.pending)
		printk(KERN_WARNING "chan work pending %lu\n", ch->work.pending);
	if (wp->pending)
		ch->busy = 1;
}

static void chan_reset(struct chan *ch)
{
	ch->work.pending = 0;
}

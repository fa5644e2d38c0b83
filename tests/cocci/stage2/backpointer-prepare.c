/*
 * Rule 4: one item, two handlers, each given another back-pointer (a
 * channel driver re-aiming its task): every INIT_WORK/PREPARE_WORK stores
 * its data in the one new field just before, as 2.6 stored it in the item.
 */
#include <linux/workqueue.h>

struct card;
struct chan {
	struct work_struct task;
	struct card *card;
	int state;
};

static void chan_open_done(void *arg)
{
	struct card *card = arg;

	card_opened(card);
}

static void chan_close_done(void *arg)
{
	card_closed((struct card *)arg);
}

static void chan_open(struct chan *ch, struct card *card)
{
	INIT_WORK(&ch->task, chan_open_done, card);
	if (ch->state)
		PREPARE_WORK(&ch->task, chan_close_done, ch->card);
}

/* Rule 7, reported: a structure with a file-scope instance that is also
 * allocated: a pointer to it may point to another device. */
#include <linux/slab.h>
#include <linux/workqueue.h>

struct card {
	struct work_struct reset;
	int n;
};

static struct card card;

static void card_reset(void *data)
{
	struct card *c = data;

	c->n = 0;
}

static struct card *card_new(void)
{
	struct card *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c)
		INIT_WORK(&c->reset, card_reset, c);
	return c;
}

static void card_kick(struct card *c)
{
	schedule_work(&c->reset);
	flush_scheduled_work();
}

static int __init card_init(void)
{
	INIT_WORK(&card.reset, card_reset, &card);
	card_kick(&card);
	return 0;
}

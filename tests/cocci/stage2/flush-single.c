/* Rule 7: flush_scheduled_work() with items in a structure that has one
 * instance in the file, a file-scope variable: every pointer to that type
 * points to it, so its items are flushed by name. */
#include <linux/workqueue.h>

struct card {
	struct work_struct reset;
	struct work_struct poll;
	int n;
};

static struct card card;

static void card_reset(void *data)
{
	struct card *c = data;

	c->n = 0;
}

static void card_poll(void *data)
{
	struct card *c = data;

	c->n++;
}

static void card_kick(struct card *c)
{
	schedule_work(&c->reset);
	schedule_delayed_work(&c->poll, 10);
	flush_scheduled_work();
}

static int __init card_init(void)
{
	struct card *c = &card;

	INIT_WORK(&c->reset, card_reset, c);
	INIT_WORK(&c->poll, card_poll, c);
	card_kick(c);
	return 0;
}

static void __exit card_exit(void)
{
	cancel_delayed_work(&card.poll);
	flush_scheduled_work();
}

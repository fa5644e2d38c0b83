/* A handler chosen at run time, through a pointer: no rule can rewrite it. */
#include <linux/workqueue.h>

struct card {
	struct work_struct work;
	void (*handler)(void *data);
};

void card_setup(struct card *c)
{
	INIT_WORK(&c->work, c->handler, c);
}

void card_kick(struct card *c)
{
	schedule_work(&c->work);
}

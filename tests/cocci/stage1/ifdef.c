/* Task queue code under #ifdef: both branches are converted. */
#include <linux/config.h>
#include <linux/tqueue.h>

struct dev {
#ifdef CONFIG_DEV_POLL
	struct tq_struct poll;
#ifdef X
	int irq;
#endif
	struct tq_struct reset;
};

static void dev_poll(void *);
static void dev_reset(void *);

void dev_start(struct dev *d)
{
#ifdef CONFIG_DEV_POLL
	INIT_TQUEUE(&d->poll, dev_poll, d);
	queue_task(&d->poll, &tq_timer);
#endif
	INIT_TQUEUE(&d->reset, dev_reset, d);


#ifdef X
	schedule_task(&d->reset);
#endif
}

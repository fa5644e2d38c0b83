/* Task queue code under #ifdef: both branches are converted.  A branch for
 * kernels before 2.4 (tq_scheduler) is none of a target kernel's: left as
 * it is, not reported. */
#include <linux/config.h>
#include <linux/version.h>
#include <linux/tqueue.h>

struct dev {
#ifdef CONFIG_DEV_POLL
	struct tq_struct poll;
#else
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
#if LINUX_VERSION_CODE < 0x020400
	queue_task(&d->reset, &tq_scheduler);
#else
	schedule_task(&d->reset);
#endif
}

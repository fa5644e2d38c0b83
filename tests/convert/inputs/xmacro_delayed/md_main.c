#include <linux/module.h>
#include <linux/kernel.h>
#include "md.h"

struct workqueue_struct *md_wq;

static void md_poll(void *data)
{
	struct md *m = data;

	if (m->state)
		MD_SCHEDULE_DELAYED_WORK(&m->poll, HZ);
}

static void md_watchdog(void *data)
{
	struct md *m = data;

	MD_POLL_LATER(&m->watchdog, 5 * HZ);
}

static void md_reset(void *data)
{
	struct md *m = data;

	m->state = 0;
}

void md_start(struct md *m)
{
	INIT_WORK(&m->poll, md_poll, m);
	INIT_WORK(&m->watchdog, md_watchdog, m);
	INIT_WORK(&m->reset, md_reset, m);
	MD_SCHEDULE_DELAYED_WORK(&m->poll, HZ);
	MD_POLL_LATER(&m->watchdog, 5 * HZ);
	schedule_work(&m->reset);
}

MODULE_LICENSE("GPL");

/* A task laid out field by field, each commented (2.2's lirc_aver.c). */
#include <linux/tqueue.h>

static void remote_timer(void *unused);

static struct tq_struct polling_task = {
	NULL,		/* next */
	0,		/* sync */
	remote_timer,	/* routine */
	NULL		/* data */
};

static int decoded;

static void remote_timer(void *unused)
{
	if (decoded)
		queue_task(&polling_task, &tq_timer);
}

int start(void)
{
	queue_task(&polling_task, &tq_timer);
	return 0;
}

/* Reported: the handler already uses the name `work` (here a global item),
 * which the new parameter would shadow. */
#include <linux/workqueue.h>

static void poll(void *data);
static DECLARE_WORK(work, poll, NULL);

static void poll(void *data)
{
	schedule_work(&work);
}

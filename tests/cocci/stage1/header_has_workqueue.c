/* Already includes <linux/workqueue.h>: <linux/tqueue.h> just goes. */
#include <linux/workqueue.h>
#include <linux/tqueue.h>

static void fn(void *);
static struct tq_struct tq = { routine: fn };

void kick(void)
{
	schedule_task(&tq);
}

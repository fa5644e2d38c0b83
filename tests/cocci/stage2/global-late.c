/* Rule 4, reported: the global data is declared after the handler (as in
 * ds1374 and m41t00, where the human moved the declaration up). */
#include <linux/workqueue.h>

static void set_work(void *arg)
{
	unsigned long t = *(unsigned long *)arg;

	(void)t;
}

static unsigned long new_time;
static DECLARE_WORK(set_item, set_work, &new_time);

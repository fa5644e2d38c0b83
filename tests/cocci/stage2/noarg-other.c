/*
 * Rule 2: a handler that takes no argument and is also kept in a function
 * pointer of its own type: changing its type would break that use, so
 * nothing changes and the use is reported.
 */
#include <linux/workqueue.h>

static void ncr_kick(void)
{
}

static void (*ncr_hook)(void) = ncr_kick;
static DECLARE_WORK(ncr_work, (void (*)(void *))ncr_kick, NULL);

static void ncr_start(void)
{
	ncr_hook();
	schedule_work(&ncr_work);
}

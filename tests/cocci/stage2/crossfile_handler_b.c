/* After crossfile_handler_a.c in one spatch run: its own probe_it() is no handler, so its PREPARE_WORK is INIT_WORK as when alone. */
#include <linux/workqueue.h>
static struct work_struct wb;
static void hb(struct work_struct *w)
{
}
static int probe_it(void)
{
	PREPARE_WORK(&wb, hb);
	return 0;
}

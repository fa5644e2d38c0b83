/* Batched with crossfile_handler_b.c (one spatch, many files): probe_it is a handler here only; b.c must convert as alone. */
#include <linux/workqueue.h>
static struct work_struct wa, wa2;
static void probe_it(struct work_struct *w)
{
}
static void other(struct work_struct *w)
{
}
static int init_a(void)
{
	INIT_WORK(&wa, probe_it);
	INIT_WORK(&wa2, other);
	PREPARE_WORK(&wa2, other);
	schedule_work(&wa2);
	return 0;
}

/* Batched with crossfile_sizeof_b.c (one spatch, many files): a sizeof of unknown type here only. */
#include <linux/workqueue.h>
static void a_exit(void)
{
	char *buf = kmalloc(sizeof(*unknown_thing), GFP_KERNEL);
	flush_scheduled_work();
}

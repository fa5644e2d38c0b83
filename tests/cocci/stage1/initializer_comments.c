/*
 * GNU old-style initializers with comments where 2.4 drivers put them: one
 * that closes the routine's line (and so sits before `data:`), and one
 * inside the value, as atari_NCR5380.c wrote beside its cast.  The fields
 * are still read, and the comments kept.
 */
#include <linux/tqueue.h>

static void NCR5380_main(void);
static void scan(void *dev);

static struct tq_struct NCR5380_tqueue = {
	routine:	(void (*)(void*))NCR5380_main	/* must have (void *) arg... */
};

static struct tq_struct scan_task = {
	routine:	scan,	/* rescan the bus */
	data:		NULL
};

static void kick(void)
{
	schedule_task(&NCR5380_tqueue);
	schedule_task(&scan_task);
}

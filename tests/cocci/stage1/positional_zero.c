/*
 * fd1772 style: a positional initializer that writes the list as 0,
 * which is what a zeroed task holds.
 */
#include <linux/tqueue.h>

static void fd_checkint(void);

struct tq_struct fd_tq =
{ 0,0, (void *)fd_checkint, 0 };

void fd_interrupt(void)
{
	queue_task(&fd_tq, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

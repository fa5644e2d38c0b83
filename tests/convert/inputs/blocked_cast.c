/* floppy.c style: the file's only task stays on the 2.4 API (its list is
 * read), and its routine is stored through a cast.  Stage 1 leaves the
 * file as it was, with its item: no trampoline either. */
#include <linux/tqueue.h>

struct fl {
	int busy;
};

static void fl_bh(struct fl *f)
{
	f->busy = 0;
}

static struct tq_struct fl_tq;

void fl_start(struct fl *f)
{
	fl_tq.routine = (void (*)(void *))fl_bh;
	fl_tq.data = f;
	if (list_empty(&fl_tq.list))
		queue_task(&fl_tq, &tq_immediate);
}

/* plip.c style: a routine that takes its device, registered through a
 * cast to the routine type.  The shim calls it as void (*)(void *), which
 * kCFI traps: stage 1's output registers a trampoline of that type, which
 * calls the routine; stage 2 gives the handler its work parameter and
 * drops the cast. */
#include <linux/tqueue.h>

struct pdev {
	struct tq_struct immediate;
	int kicks;
};

static void pdev_bh(struct pdev *p)
{
	p->kicks++;
}

void pdev_open(struct pdev *p)
{
	INIT_TQUEUE(&p->immediate, (void (*)(void *))pdev_bh, p);
	queue_task(&p->immediate, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

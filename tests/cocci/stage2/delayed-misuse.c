/* Rule 1, reported: a delayed item also handed on as a work_struct, and a
 * delayed call through a pointer.  Both stay struct work_struct. */
#include <linux/workqueue.h>

struct foo {
	struct work_struct bad;
};

static void hand_on(struct work_struct *w);

static void stop(struct foo *p, struct work_struct *wp)
{
	cancel_delayed_work(&p->bad);
	hand_on(&p->bad);
	cancel_delayed_work(wp);
}

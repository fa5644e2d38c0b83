/* Reported: one handler serves two different items; plus a member
 * (non-container) case; plus code that must be left alone. */
#include <linux/workqueue.h>

struct two {
	struct work_struct a;
	struct work_struct b;
	struct tasklet_struct t;
};

static void both(void *data)
{
	struct two *t = data;

	(void)t;
}

static void setup(struct two *t)
{
	INIT_WORK(&t->a, both, t);
	INIT_WORK(&t->b, both, t);
	t->t.func(t->t.data);	/* a tasklet: left alone */
}

/* No task queues: `routine` and `list` fields of other structures, a
 * comment that mentions queue_task(&t, &tq_timer), untouched. */
#include <linux/list.h>

struct cmd {
	struct list_head list;
	void (*routine)(void *);
	void *data;
	int sync;
};

static void done(void *);

static struct cmd first = { routine: done, data: NULL };

void run(struct cmd *c)
{
	c->routine = done;
	c->data = c;
	INIT_LIST_HEAD(&c->list);
	c->sync = 0;
	c->routine(c->data);	/* queue_task(&t, &tq_timer) in 2.4 */
}

/*
 * A handler also called directly, twice, with something stage 2 cannot
 * turn into the item (here another global than its data): both calls are
 * reported, the handler is left alone, and the patch does not stop at the
 * first (it once failed there, in Python, on the second call).
 */
#include <linux/workqueue.h>

struct cdu_state {
	int busy;
};

static struct cdu_state cdu;
static struct cdu_state cdu_spare;
static struct work_struct cdu_work;

static void cdu_poll(void *data)
{
	struct cdu_state *s = data;

	s->busy = 0;
}

static void cdu_setup(void)
{
	INIT_WORK(&cdu_work, cdu_poll, &cdu);
	cdu_poll(&cdu_spare);
}

static void cdu_reset(void)
{
	cdu_poll(&cdu_spare);
}

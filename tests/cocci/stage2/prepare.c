/* Rule 6: PREPARE_WORK -> INIT_WORK where the item cannot be queued;
 * reported where it may be: step, and once, prepared and queued by one
 * function, which may run again while it is pending. */
#include <linux/workqueue.h>

struct sm {
	struct work_struct step;
	struct work_struct once;
	int state;
};

static void step_a(void *data)
{
	struct sm *sm = data;

	sm->state = 1;
}

static void step_b(void *data)
{
	struct sm *sm = data;

	sm->state = 2;
}

static void step_c(void *data)
{
	struct sm *sm = data;

	sm->state = 3;
}

static void sm_init(struct sm *sm)
{
	INIT_WORK(&sm->step, step_a, sm);
	PREPARE_WORK(&sm->step, step_a, sm);
	PREPARE_WORK(&sm->once, step_c, sm);
	schedule_work(&sm->once);
}

static void sm_next(struct sm *sm)
{
	PREPARE_WORK(&sm->step, step_b, sm);
	schedule_work(&sm->step);
}

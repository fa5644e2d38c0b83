/* Rule 6, reported: INIT_WORK on only some paths before PREPARE_WORK (the
 * path that skips it may find the item queued by an earlier call). */
#include <linux/workqueue.h>
struct sm { struct work_struct step; int state; };
static void a(void *data) { struct sm *sm = data; sm->state = 1; }
static void b(void *data) { struct sm *sm = data; sm->state = 2; }
static void f(struct sm *sm, int x)
{
	if (x)
		INIT_WORK(&sm->step, a, sm);
	PREPARE_WORK(&sm->step, b, sm);
	schedule_work(&sm->step);
}

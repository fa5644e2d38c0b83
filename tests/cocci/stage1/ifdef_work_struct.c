/*
 * chelsio cxgb2.c (2.6.18) style: "#ifdef work_struct" is the driver's test
 * for a 2.4 kernel with a workqueue emulation (a header defining
 * work_struct as tq_struct).  No 2.6 or later kernel defines work_struct as
 * a macro: the branch is left whole, the other one already is 2.6 code.
 */
#include <linux/workqueue.h>

struct adapter {
	struct work_struct stats_update_task;
	int stats;
};

#ifdef work_struct
#include <linux/tqueue.h>
#define INIT_WORK INIT_TQUEUE
#define schedule_work schedule_task
#define flush_scheduled_work flush_scheduled_tasks

static inline void cancel_mac_stats_update(struct adapter *ap)
{
	flush_scheduled_tasks();
}
#else
static inline void cancel_mac_stats_update(struct adapter *ap)
{
	flush_scheduled_work();
}
#endif

static void mac_stats_task(void *data)
{
	struct adapter *ap = data;

	ap->stats++;
}

void cxgb_open(struct adapter *ap)
{
	INIT_WORK(&ap->stats_update_task, mac_stats_task, ap);
	schedule_work(&ap->stats_update_task);
}

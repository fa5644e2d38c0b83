/* 2.6.18's infiniband cm.c: struct cm_work's item is called work and is
 * delayed; struct cm_timewait holds a struct cm_work called work too, whose
 * members it reads directly.  Those are no members of the work item: the
 * item becomes struct delayed_work, with no item about them. */
#include <linux/workqueue.h>

struct cm_work {
	struct work_struct work;
	int remote_id;
};

struct cm_timewait {
	struct cm_work work;
	int state;
};

static struct workqueue_struct *cm_wq;

static void cm_work_handler(void *data)
{
	struct cm_work *work = data;

	work->remote_id = 0;
}

static int cm_compare(struct cm_timewait *a, struct cm_timewait *b)
{
	return a->work.remote_id - b->work.remote_id;
}

static void cm_enter_timewait(struct cm_timewait *tw)
{
	INIT_WORK(&tw->work.work, cm_work_handler, &tw->work);
	queue_delayed_work(cm_wq, &tw->work.work, HZ);
}

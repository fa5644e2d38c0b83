/* Rule 5: direct w.func(w.data) and stores into the data field. */
#include <linux/workqueue.h>

struct job {
	struct work_struct w;
	void *arg;
};

static void job_fn(void *data)
{
	struct job *j = data;

	(void)j;
}

static void job_run(struct job *j, struct work_struct *wp)
{
	INIT_WORK(&j->w, job_fn, j);
	j->w.func(j->w.data);
	wp->func(wp->data);
}

static void job_retarget(struct work_struct *wp, void *arg)
{
	wp->data = arg;
}

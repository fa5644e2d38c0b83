/* A 2.6 driver's per-CPU counter beside its work item (2.6.18's random.c). */
#include <linux/percpu.h>
#include <linux/workqueue.h>

static DEFINE_PER_CPU(int, pw_hits) = 0;

static void pw_handler(void *data)
{
	per_cpu(pw_hits, 0)++;
}

static DECLARE_WORK(pw_work, pw_handler, NULL);

void pw_kick(void)
{
	schedule_work(&pw_work);
}

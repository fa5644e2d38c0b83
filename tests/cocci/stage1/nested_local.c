/* A task initialised positionally inside a local structure's initializer:
 * no init path can reach it, so it is reported and the file left as it is. */
#include <linux/module.h>
#include <linux/tqueue.h>

struct job {
	int id;
	struct tq_struct tq;
};

static void job_run(void *data);

static int __init job_init(void)
{
	struct job j = { 1, { { NULL, NULL }, 0, job_run, &j } };

	schedule_task(&j.tq);
	flush_scheduled_tasks();
	return 0;
}

module_init(job_init);

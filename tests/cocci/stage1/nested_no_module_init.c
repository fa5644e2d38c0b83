/* A task initialised inside an enclosing structure's initializer in a file
 * without module_init(): there is no init path to move it to, so it is
 * reported and the file left as it is. */
#include <linux/tqueue.h>

struct ctl {
	int state;
	struct tq_struct tq;
};

static void ctl_run(void *data);

static struct ctl ctl0 = {
	state:	0,
	tq:	{ routine: ctl_run, data: &ctl0 },
};

void ctl_kick(void)
{
	schedule_task(&ctl0.tq);
}

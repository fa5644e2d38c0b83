/* Two work items in one declaration, both used as delayed work: stage 2
 * retypes a declaration of one name only, and the check must name both
 * (the second is declared here too, not outside the run). */
#include <linux/workqueue.h>

struct nic {
	struct work_struct poll, reset;
	int polls;
};

static void nic_poll(void *data)
{
	struct nic *n = data;

	n->polls++;
}

void nic_start(struct nic *n)
{
	INIT_WORK(&n->poll, nic_poll, n);
	INIT_WORK(&n->reset, nic_poll, n);
	schedule_delayed_work(&n->poll, HZ);
	schedule_delayed_work(&n->reset, HZ);
}

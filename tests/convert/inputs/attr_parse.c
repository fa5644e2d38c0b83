#include <linux/module.h>
#include <linux/tqueue.h>
#include <linux/spinlock.h>

/* 2.4's ns83820: an aligned array in the structure that holds the task */
struct nic {
	struct tq_struct task;
	int count;
	char pad[16] __attribute__((aligned(16)));
};

/* 2.6's paride/pseudo.h: an attribute in a macro's argument */
static DEFINE_SPINLOCK(nic_lock __attribute__((unused)));

static void nic_task(void *data)
{
	struct nic *n = data;

	n->count++;
}

static void nic_setup(struct nic *n)
{
	INIT_TQUEUE(&n->task, nic_task, n);
	schedule_task(&n->task);
}

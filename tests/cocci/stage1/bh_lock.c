/* The routine ran in bottom-half context and takes a lock that process
 * context takes with spin_lock_bh(): as a work item it needs _bh too.  The
 * lock is the driver's (a field of its own structure): the routine's plain
 * calls become their _bh forms, and the task converts. */
#include <linux/spinlock.h>
#include <linux/tqueue.h>

struct adapter {
	spinlock_t lock;
	int pending;
	struct tq_struct tq;
};

static void adapter_bh(void *data)
{
	struct adapter *a = data;

	spin_lock(&a->lock);
	a->pending = 0;
	spin_unlock(&a->lock);
}

void adapter_irq(struct adapter *a)
{
	queue_task(&a->tq, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void adapter_ioctl(struct adapter *a)
{
	spin_lock_bh(&a->lock);
	a->pending++;
	spin_unlock_bh(&a->lock);
}

void adapter_init(struct adapter *a)
{
	INIT_TQUEUE(&a->tq, adapter_bh, a);
}

/* A tq_timer routine that takes the driver's rwlock with write_lock(),
 * while process context reads it with read_lock_bh(): as a work item
 * the routine takes it with write_lock_bh(); the task converts. */
#include <linux/spinlock.h>
#include <linux/tqueue.h>

static DEFINE_RWLOCK(table_lock);
static int table[4];
static struct tq_struct refresh_tq;

static void refresh(void *data)
{
	write_lock(&table_lock);
	table[0]++;
	write_unlock(&table_lock);
	queue_task(&refresh_tq, &tq_timer);
}

int table_get(int i)
{
	int v;

	read_lock_bh(&table_lock);
	v = table[i];
	read_unlock_bh(&table_lock);
	return v;
}

void table_start(void)
{
	INIT_TQUEUE(&refresh_tq, refresh, NULL);
	queue_task(&refresh_tq, &tq_timer);
}

/* Routines that ran in bottom-half context and take a lock that process
 * context takes with _bh, where rewriting the routine is not enough or not
 * known to be: a lock declared elsewhere (other code may take it), a lock
 * taken by a function the routine calls, a lock tried.  Those tasks stay
 * on the 2.4 API; the one with nothing of the kind converts. */
#include <linux/spinlock.h>
#include <linux/tqueue.h>

extern spinlock_t card_lock;		/* the bus driver's */
static spinlock_t stat_lock = SPIN_LOCK_UNLOCKED;
static spinlock_t try_lock = SPIN_LOCK_UNLOCKED;
static int stats, tries, ticks;

static struct tq_struct card_tq;
static struct tq_struct stat_tq;
static struct tq_struct try_tq;
static struct tq_struct tick_tq;

static void card_bh(void *data)
{
	spin_lock(&card_lock);
	stats++;
	spin_unlock(&card_lock);
}

static void stat_add(void)
{
	spin_lock(&stat_lock);
	stats++;
	spin_unlock(&stat_lock);
}

static void stat_bh(void *data)
{
	stat_add();
}

static void try_bh(void *data)
{
	if (spin_trylock(&try_lock)) {
		tries++;
		spin_unlock(&try_lock);
	}
}

static void tick_bh(void *data)
{
	ticks++;
}

void card_irq(void)
{
	queue_task(&card_tq, &tq_immediate);
	queue_task(&stat_tq, &tq_timer);
	queue_task(&try_tq, &tq_timer);
	queue_task(&tick_tq, &tq_timer);
	mark_bh(IMMEDIATE_BH);
}

int card_read(void)
{
	int n;

	spin_lock_bh(&card_lock);
	spin_lock_bh(&stat_lock);
	spin_lock_bh(&try_lock);
	n = stats + tries + ticks;
	spin_unlock_bh(&try_lock);
	spin_unlock_bh(&stat_lock);
	spin_unlock_bh(&card_lock);
	return n;
}

void card_init(void)
{
	INIT_TQUEUE(&card_tq, card_bh, NULL);
	INIT_TQUEUE(&stat_tq, stat_bh, NULL);
	INIT_TQUEUE(&try_tq, try_bh, NULL);
	INIT_TQUEUE(&tick_tq, tick_bh, NULL);
}

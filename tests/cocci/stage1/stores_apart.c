/*
 * Routine and data stored apart, three ways 2.4 drivers do it:
 *  - hisax style: the data, the card itself, is set when the card is
 *    created, the routine later when it is set up: each routine store
 *    gets the same data, the early store goes;
 *  - s390 ctrlchar style: the routine is set once, the data right before
 *    each queueing: those become PREPARE_TQUEUE (PREPARE_WORK);
 *  - chandev style: list and sync set between the two stores, under an
 *    #if for kernels since 2.3: the data store moves up to the routine's.
 */
#include <linux/version.h>
#include <linux/tqueue.h>
#include <linux/tty.h>

struct isdn_card {
	int irq;
	struct tq_struct tqueue;
};

static void card_bh(struct isdn_card *cs);
static void sysrq_handle(void *tty);
static void msck_task(void *unused);

static struct tq_struct sysrq_tq;
static struct tq_struct msck_tq;

void card_new(struct isdn_card *cs)
{
	cs->tqueue.sync = 0;
	cs->tqueue.data = cs;
}

void card_setup(struct isdn_card *cs)
{
	cs->tqueue.routine = (void *) (void *) card_bh;
}

void card_event(struct isdn_card *cs)
{
	queue_task(&cs->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void sysrq_init(void)
{
	INIT_LIST_HEAD(&sysrq_tq.list);
	sysrq_tq.sync = 0;
	sysrq_tq.routine = (void (*)(void *)) sysrq_handle;
}

void sysrq_key(struct tty_struct *tty)
{
	sysrq_tq.data = tty;
	queue_task(&sysrq_tq, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void msck_init(void)
{
	msck_tq.routine =
		msck_task;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,3,0)
	INIT_LIST_HEAD(&msck_tq.list);
	msck_tq.sync = 0;
#endif
	msck_tq.data = NULL;
}

void msck_kick(void)
{
	schedule_task(&msck_tq);
}

/* spatch cannot parse the structure holding the task (here an attribute after the declarator,
 * as in 2.4 ns83820.c): its rules would skip it silently, so the file is left. */
#include <linux/tqueue.h>

struct card {
	int irq;
	struct tq_struct tq;
	char		pad[16] __attribute__((aligned(16)));
};

static void card_task(void *);

void card_init(struct card *c)
{
	INIT_TQUEUE(&c->tq, card_task, c);
	schedule_task(&c->tq);
}

/* Macros whose bodies are one expression or a do-while: spatch sees through. */
#include <linux/tqueue.h>

#define KICK(p)		queue_task(&(p)->tq, &tq_timer)
#define RESET(p)	do { INIT_TQUEUE(&(p)->tq, reset_fn, (p)); schedule_task(&(p)->tq); } while (0)

struct card {
	struct tq_struct tq;
};

static void reset_fn(void *);

void card_event(struct card *c)
{
	KICK(c);
	RESET(c);
}

/* C99 designated and positional initializers. */
#include <linux/tqueue.h>

static void a_fn(void *data);
static int cookie;

static struct tq_struct a_tq = { .routine = a_fn, .data = &cookie };
static struct tq_struct b_tq = { .data = &cookie, .routine = a_fn };
static struct tq_struct c_tq = { {NULL, NULL}, 0, a_fn, &cookie };
static struct tq_struct d_tq = { sync: 0, routine: a_fn };

void kick(void)
{
	schedule_task(&a_tq);
	schedule_task(&b_tq);
	schedule_task(&c_tq);
	schedule_task(&d_tq);
}

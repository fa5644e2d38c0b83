/* Every place the type can be spelt: several items, arrays, typedefs,
 * anonymous structures, pointers, casts and sizeof. */
#include <linux/tqueue.h>

typedef struct tq_struct task_t;

static struct {
	int count;
	struct tq_struct a, b;
	struct tq_struct ring[8];
} state;

struct tq_struct *cur_task;

static void fn(void *data);

int size_of_task(void)
{
	return sizeof(struct tq_struct);
}

void init_all(void *p)
{
	struct tq_struct *t = (struct tq_struct *)p;
	int i;

	INIT_TQUEUE(&state.a, fn, NULL);
	INIT_TQUEUE(&state.b, fn, NULL);
	for (i = 0; i < 8; i++)
		INIT_TQUEUE(&state.ring[i], fn, &state);
	INIT_TQUEUE(t, fn, NULL);
	cur_task = t;
	schedule_task(cur_task);
}

/* Rule 3: the data is the structure containing the item. */
#include <linux/workqueue.h>

struct foo {
	int count;
	struct work_struct reset;
	struct work_struct tx;	/* two work items in one struct */
};

static void foo_reset(void *data);

static void foo_reset(void *data)
{
	struct foo *foo = data;

	foo->count = 0;
}

static void foo_tx(void *_foo)
{
	int i;
	struct foo *foo = (struct foo *)_foo;

	for (i = 0; i < 4; i++)
		foo->count++;
}

static void foo_setup(struct foo *foo)
{
	INIT_WORK(&foo->reset, foo_reset, foo);
	INIT_WORK(&foo->tx, (void (*)(void *))foo_tx, (void *)foo);
	schedule_work(&foo->reset);
}

static void foo_now(struct foo *foo)
{
	foo_reset(foo);		/* direct call: passes the item now */
}

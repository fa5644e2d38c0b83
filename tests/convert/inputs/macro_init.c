/* A task set up in a macro of GNU initializers (2.4's scsi/ppa.c, imm.c). */
#include <linux/tqueue.h>

struct mi_dev {
	int base;
	struct tq_struct tq;
};

static void mi_task(void *data)
{
}

#define MI_EMPTY	\
{	base:	-1,	\
	tq:	{ routine: mi_task },	\
}

static struct mi_dev mi_devs[2] = { MI_EMPTY, MI_EMPTY };

void mi_kick(int i)
{
	schedule_task(&mi_devs[i].tq);
}

/*
 * Rule 2/3: an item set up with no handler yet, given one with its data
 * by a later PREPARE_WORK (2.6.18's tty_io.c: INIT_WORK(&tty->SAK_work,
 * NULL, NULL); libata-core.c's port_task).
 */
#include <linux/workqueue.h>

struct port {
	int state;
	struct work_struct task;
};

static void port_task(void *data)
{
	struct port *p = data;

	p->state++;
}

static void port_init(struct port *p)
{
	INIT_WORK(&p->task, NULL, NULL);
}

static void port_start(struct port *p)
{
	PREPARE_WORK(&p->task, port_task, p);
	schedule_work(&p->task);
}

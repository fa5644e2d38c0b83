/*
 * Rule 7, reported: the items of a file-scope array, but only some elements
 * are seen initialised, and flush_work() WARNs on an item never initialised.
 */
#include <linux/workqueue.h>

struct port {
	int line;
	struct work_struct tqueue;
};

static struct port ports[4];

static void port_task(void *data)
{
	struct port *p = data;

	p->line++;
}

static void port_event(struct port *p)
{
	schedule_work(&p->tqueue);
}

int port_open(int line)
{
	INIT_WORK(&ports[line].tqueue, port_task, &ports[line]);
	port_event(&ports[line]);
	return 0;
}

void port_fini(void)
{
	flush_scheduled_work();
}

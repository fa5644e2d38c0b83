/* Tasks initialised in GNU old-style inside an enclosing structure's
 * initializer: INIT_WORK() at the start of the module_init() function. */
#include <linux/module.h>
#include <linux/tqueue.h>

struct port {
	int irq;
	struct tq_struct tqueue;
	struct tq_struct hangup;
};

static void port_softint(void *);
static void port_hangup(void *);

static struct port port0 = {
	irq:	4,
	tqueue:	{ routine: port_softint, data: &port0 },
	hangup:	{ routine: (void (*)(void *)) port_hangup }
};

static int __init port_init(void)
{
	int err = 0;
	struct port *p = &port0;

	schedule_task(&p->tqueue);
	return err;
}

static void __exit port_exit(void)
{
	flush_scheduled_tasks();
}

module_init(port_init);
module_exit(port_exit);

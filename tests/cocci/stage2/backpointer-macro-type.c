/*
 * Rule 4, reported: the item is declared with the driver's own name for
 * its type (a macro, as version-spanning drivers wrote it); stage 2 adds
 * a field only beside a member written struct work_struct, and the report
 * names the macro.
 */
#include <linux/workqueue.h>

#define WORK_STRUCT struct work_struct

struct port;
struct priv {
	int irq;
	WORK_STRUCT tx;
	int busy;
};

static void tx_fn(void *data)
{
	struct port *port = data;

	port_tx(port);
}

static void attach(struct priv *priv, struct port *port)
{
	INIT_WORK(&priv->tx, tx_fn, port);
}

/*
 * Rule 4, reported: the item sits in an anonymous struct inside the
 * container, where no new field is added; the report says why.
 */
#include <linux/workqueue.h>

struct port;
struct priv {
	struct {
		struct work_struct tx;
		int tx_len;
	};
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

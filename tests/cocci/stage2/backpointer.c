/* Rule 4: the data is a back-pointer, not the container (as keyspan_pda,
 * where the 2.6.20 human added priv->port): the struct, defined here, gets
 * a field beside the item, set where the item was initialised. */
#include <linux/workqueue.h>

struct port;
struct priv {
	struct work_struct wakeup;
	int busy;
};

static void wakeup_fn(void *data)
{
	struct port *port = data;

	port_wakeup(port);
}

static void attach(struct priv *priv, struct port *port)
{
	INIT_WORK(&priv->wakeup, wakeup_fn, port);
}

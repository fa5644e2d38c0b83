/* Rule 4, reported: the data is a back-pointer, not the container
 * (as keyspan_pda: the human added priv->port).  Left alone. */
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

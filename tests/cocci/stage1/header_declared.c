/* The task's struct tq_struct is declared in the driver's header (tlan.c and
 * tlan.h): the field stores cannot be typed here, so the file is left. */
#include <linux/tqueue.h>
#include "card.h"

static void card_timeout(void *);

void card_init(struct card_priv *priv, void *dev)
{
	priv->tqueue.sync = 0;
	priv->tqueue.routine = card_timeout;
	priv->tqueue.data = dev;
}

void card_irq(struct card_priv *priv)
{
	queue_task(&priv->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

/*
 * aironet4500 style: a macro of several statements, which spatch cannot
 * see through, queues the task; its body is rewritten as 03 would.
 */
#include <linux/tqueue.h>
#include <linux/interrupt.h>

struct awc_private {
	int bh_active;
	int bh_running;
	struct tq_struct immediate_bh;
};

#define AWC_QUEUE_BH {\
	if (!priv->bh_active && !priv->bh_running){\
		priv->bh_active = 1;\
		queue_task(&priv->immediate_bh, &tq_immediate);\
		mark_bh(IMMEDIATE_BH);\
	}\
	}

static void awc_bh(void *data);

void awc_init(struct awc_private *priv)
{
	INIT_TQUEUE(&priv->immediate_bh, awc_bh, priv);
}

void awc_interrupt(struct awc_private *priv)
{
	AWC_QUEUE_BH;
}

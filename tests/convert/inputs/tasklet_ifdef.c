/* Tasklet or task queue, chosen by #ifdef DECLARE_TASKLET (linux-wlan-ng). */
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>

struct wlandev {
#ifdef DECLARE_TASKLET
	struct tasklet_struct rx_bh;
#else
	struct tq_struct rx_bh;
#endif
	int n;
};

#ifdef DECLARE_TASKLET
static void rx_bh(unsigned long arg)
#else
static void rx_bh(void *arg)
#endif
{
	struct wlandev *w = (struct wlandev *)arg;
	w->n++;
}

void rx(struct wlandev *w)
{
#ifdef DECLARE_TASKLET
	tasklet_schedule(&w->rx_bh);
#else
	queue_task(&w->rx_bh, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
#endif
}

void setup(struct wlandev *w)
{
#ifdef DECLARE_TASKLET
	tasklet_init(&w->rx_bh, rx_bh, (unsigned long)w);
#else
	INIT_TQUEUE(&w->rx_bh, rx_bh, (void *)w);
#endif
}

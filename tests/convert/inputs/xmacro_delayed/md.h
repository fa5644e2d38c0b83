/* A 2.6 driver's header: its items, and its own names for the delayed calls. */
#include <linux/workqueue.h>

#define MD_SCHEDULE_DELAYED_WORK(...) schedule_delayed_work(__VA_ARGS__)
#define MD_POLL_LATER(w, ticks) queue_delayed_work(md_wq, w, ticks)

extern struct workqueue_struct *md_wq;

struct md {
	int state;
	struct work_struct poll;
	struct work_struct watchdog;
	struct work_struct reset;
};

void md_start(struct md *m);

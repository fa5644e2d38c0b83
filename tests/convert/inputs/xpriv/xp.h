/* xpriv: a two-file module; both files use the system workqueue. */
#include <linux/workqueue.h>

struct xp_dev {
	struct work_struct reset;
	struct work_struct stats;
};

void xp_stats_kick(struct xp_dev *d);

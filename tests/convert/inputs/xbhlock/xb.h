/* The driver's own header: its device, with the lock its files share. */
#include <linux/spinlock.h>
#include <linux/tqueue.h>

struct xb_dev {
	spinlock_t lock;
	int ticks;
	struct tq_struct tick;
};

void xb_start(struct xb_dev *dev);
int xb_ticks(struct xb_dev *dev);

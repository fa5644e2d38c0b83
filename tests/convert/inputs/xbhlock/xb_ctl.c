/* Process context: the lock with spin_lock_bh(), against the routine. */
#include "xb.h"

int xb_ticks(struct xb_dev *dev)
{
	int n;

	spin_lock_bh(&dev->lock);
	n = dev->ticks;
	spin_unlock_bh(&dev->lock);
	return n;
}

/*
 * An out-of-tree driver that builds on several kernels: the 2.6.19 API and
 * the 2.6.20 one under #if LINUX_VERSION_CODE.  The branch for kernels
 * before 2.6.20 is none of a modern kernel's: left as it is (each branch
 * stays right for its kernels); the other is already modern.  The one
 * item outside them, on the old API, converts.
 */
#include <linux/version.h>
#include <linux/workqueue.h>

struct xdev {
	struct work_struct reset_work;
	struct work_struct stats_work;
	int resets;
	int stats;
};

#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,20)
static void xdev_reset(void *data)
{
	struct xdev *x = data;
#else
static void xdev_reset(struct work_struct *work)
{
	struct xdev *x = container_of(work, struct xdev, reset_work);
#endif
	x->resets++;
}

static void xdev_stats(void *data)
{
	struct xdev *x = data;

	x->stats++;
}

void xdev_init(struct xdev *x)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,20)
	INIT_WORK(&x->reset_work, xdev_reset, x);
#else
	INIT_WORK(&x->reset_work, xdev_reset);
#endif
	INIT_WORK(&x->stats_work, xdev_stats, x);
}

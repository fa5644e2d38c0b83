/* A handler cast with the work_func_t typedef where it is registered: the
 * call through the kernel's pointer traps under kCFI. */
#include <linux/workqueue.h>

struct pdev {
	struct work_struct work;
	int kicks;
};

static void pdev_work(struct pdev *p)
{
	p->kicks++;
}

void pdev_open(struct pdev *p)
{
	INIT_WORK(&p->work, (work_func_t)pdev_work);
	schedule_work(&p->work);
}

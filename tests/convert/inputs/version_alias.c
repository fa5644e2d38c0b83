/* A 2.0-2.4 driver's own KERNEL_VERSION (MOXA's mu860: VERSION_CODE). */
#include <linux/module.h>
#include <linux/version.h>
#define VERSION_CODE(v,p,s) (((v)<<16)+(p<<8)+s)
#include <linux/tqueue.h>

struct port {
	struct tq_struct tqueue;
	int event;
};

static void do_softint(void *p)
{
	((struct port *)p)->event = 0;
}

void setup(struct port *info)
{
	info->tqueue.routine = do_softint;
	info->tqueue.data = info;
}

void kick(struct port *info)
{
#if (LINUX_VERSION_CODE >= VERSION_CODE(2,4,0))
	schedule_task(&info->tqueue);
#elif (LINUX_VERSION_CODE >= VERSION_CODE(2,1,0))
	queue_task(&info->tqueue, &tq_scheduler);
#else
	queue_task_irq_off(&info->tqueue, &tq_scheduler);
#endif
}

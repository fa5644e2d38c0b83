/*
 * ndiswrapper (usb.c, 2006) style: one name is a tasklet in one
 * configuration and a 2.6 work item in the other, under an #ifdef stage 2
 * cannot evaluate; the work branch cancels it as delayed work.  One
 * declaration per branch, both live to the patches: the item is reported
 * at the tasklet call as such, not as a work item handed on.
 */
#include <linux/interrupt.h>
#include <linux/workqueue.h>

#ifdef USB_TASKLET
static struct tasklet_struct wrap_urb_complete_work;
static void wrap_urb_complete_worker(unsigned long dummy);
#else
static struct work_struct wrap_urb_complete_work;
static void wrap_urb_complete_worker(void *dummy);
#endif

int usb_init(void)
{
#ifdef USB_TASKLET
	tasklet_init(&wrap_urb_complete_work, wrap_urb_complete_worker, 0);
#else
	INIT_WORK(&wrap_urb_complete_work, wrap_urb_complete_worker, NULL);
#endif
	return 0;
}

void usb_exit(void)
{
#ifdef USB_TASKLET
	tasklet_kill(&wrap_urb_complete_work);
#else
	cancel_delayed_work(&wrap_urb_complete_work);
#endif
}

void wrap_urb_complete(void)
{
#ifdef USB_TASKLET
	tasklet_schedule(&wrap_urb_complete_work);
#else
	schedule_delayed_work(&wrap_urb_complete_work, 1);
#endif
}

#ifdef USB_TASKLET
static void wrap_urb_complete_worker(unsigned long dummy)
#else
static void wrap_urb_complete_worker(void *dummy)
#endif
{
}

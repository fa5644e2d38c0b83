/* Rule 7: a private workqueue for an init function without declarations
 * whose only statement returns an expression (2.6.18 cxacru.c). */
#include <linux/module.h>
#include <linux/usb.h>
#include <linux/workqueue.h>

struct inst {
	struct work_struct poll;
};

static void inst_poll(void *data)
{
	struct inst *in = data;

	schedule_delayed_work(&in->poll, HZ);
}

static void inst_unbind(struct inst *in)
{
	while (!cancel_delayed_work(&in->poll))
		flush_scheduled_work();
}

static int inst_bind(struct inst *in)
{
	INIT_WORK(&in->poll, inst_poll, in);
	schedule_delayed_work(&in->poll, HZ);
	return 0;
}

static struct usb_driver inst_driver;

static int __init inst_init(void)
{
	return usb_register(&inst_driver);
}

static void __exit inst_exit(void)
{
	usb_deregister(&inst_driver);
}

module_init(inst_init);
module_exit(inst_exit);

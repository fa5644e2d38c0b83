/*
 * The data is a back-pointer but the handler never reads it: it just goes.
 */
#include <linux/workqueue.h>

struct usb_device;
struct hub {
	struct work_struct leds;
	int led_state;
};

static void led_work(void *unused)
{
	led_blink();
}

static void hub_setup(struct hub *hub, struct usb_device *udev)
{
	INIT_WORK(&hub->leds, led_work, udev);
}

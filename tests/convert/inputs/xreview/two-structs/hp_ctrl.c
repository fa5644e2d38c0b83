#include <linux/slab.h>
#include "hp.h"

static void hp_event_handler(void *data)
{
	struct hp_event *info = data;

	info->slot->number++;
	kfree(info);
}

void hp_interrupt(struct hp_slot *slot)
{
	struct hp_event *info = kmalloc(sizeof(*info), GFP_ATOMIC);

	if (!info)
		return;
	info->slot = slot;
	INIT_WORK(&info->work, hp_event_handler, info);
	queue_work(hp_wq, &info->work);
}

void hp_button(void *data)
{
	struct hp_slot *p_slot = data;

	p_slot->number = 0;
}

void hp_press(struct hp_slot *p_slot)
{
	queue_delayed_work(hp_wq, &p_slot->work, 5 * HZ);
}

void hp_cancel(struct hp_slot *p_slot)
{
	cancel_delayed_work(&p_slot->work);
}

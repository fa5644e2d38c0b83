#include "hp.h"

struct workqueue_struct *hp_wq;

void hp_init_slot(struct hp_slot *slot)
{
	INIT_WORK(&slot->work, hp_button, slot);
}

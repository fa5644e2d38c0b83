/* Two structures call their item work, as 2.6.18's shpchp: only the
 * slot's is delayed. */
#include <linux/workqueue.h>

struct hp_slot {
	int number;
	struct work_struct work;	/* button press, debounced */
};

struct hp_event {
	struct hp_slot *slot;
	struct work_struct work;
};

extern struct workqueue_struct *hp_wq;
void hp_button(void *data);

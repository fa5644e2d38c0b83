/*
 * Rule 2/3: the handler compared with an item's func (2.6.18 fbcon.c:
 * `if (!info->queue.func || info->queue.func == fb_flashcursor)`): the
 * comparison holds once both are work functions, and does not stop the
 * conversion.
 */
#include <linux/workqueue.h>

struct info {
	int blink;
	struct work_struct queue;
};

static void flash(void *private)
{
	struct info *info = private;

	info->blink = !info->blink;
}

static void add_timer(struct info *info)
{
	if (!info->queue.func || info->queue.func == flash) {
		if (!info->queue.func)
			INIT_WORK(&info->queue, flash, info);
	}
}

static void del_timer(struct info *info)
{
	struct work_struct *w = &info->queue;

	if (w->func != flash)
		return;
	w->func = NULL;
}

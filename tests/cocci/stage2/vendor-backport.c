/*
 * A vendor 2.6 kernel that backported struct delayed_work but kept the
 * data argument (3-argument INIT_DELAYED_WORK, void * handlers): the type
 * is right already, the handler and the macro convert.
 */
#include <linux/workqueue.h>

struct vdev {
	struct delayed_work poll;
	struct workqueue_struct *wq;
	int polls;
};

static void vdev_poll(void *data)
{
	struct vdev *v = data;

	v->polls++;
	queue_delayed_work(v->wq, &v->poll, HZ);
}

void vdev_start(struct vdev *v)
{
	INIT_DELAYED_WORK(&v->poll, vdev_poll, v);
	queue_delayed_work(v->wq, &v->poll, 0);
}

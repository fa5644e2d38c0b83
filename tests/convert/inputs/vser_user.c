/* A 2.4 serial driver whose port task is in <linux/vendor_ser.h>: that
 * task stays on the 2.4 API, named with its header; the driver's own poll
 * task converts. */
#include <linux/tqueue.h>
#include <linux/vendor_ser.h>

static void vser_softint(void *data)
{
}

static void vser_poll(void *data)
{
}

static struct tq_struct vser_poll_tq = { routine: vser_poll };

void vser_open(struct vser_port *port)
{
	port->tqueue.routine = vser_softint;
	port->tqueue.data = port;
	queue_task(&vser_poll_tq, &tq_timer);
}

void vser_event(struct vser_port *port)
{
	schedule_task(&port->tqueue);
}

/*
 * The tty layer's flip-buffer task (struct tty_flip_buffer in 2.4's
 * <linux/tty.h>): the driver queues it but does not own its type.  Queued
 * on tq_timer it is what 2.4's tty_flip_buffer_push() did, which 2.6
 * drivers call: converted.  The tty's SAK task is the tty layer's too:
 * reported, left on the 2.4 API; the driver's own task converts.
 */
#include <linux/tty.h>
#include <linux/tqueue.h>

struct my_port {
	struct tty_struct *tty;
	struct tq_struct tqueue;
};

static void my_rx(struct my_port *port, unsigned char ch)
{
	struct tty_struct *tty = port->tty;

	*tty->flip.char_buf_ptr++ = ch;
	tty->flip.count++;
	queue_task(&tty->flip.tqueue, &tq_timer);
}

static void my_event(struct my_port *port)
{
	schedule_task(&port->tqueue);
}

static void my_break(struct my_port *port)
{
	schedule_task(&port->tty->SAK_tq);
}

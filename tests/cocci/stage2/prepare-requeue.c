/* PREPARE_WORK as the only set-up of an item, on the interrupt path that
 * queues it (2.6 drivers did this on every interrupt): the item may be
 * pending there, and INIT_WORK would reset its list entry.  Reported, not
 * made INIT_WORK; the same in a set-up function that does not queue the
 * item is its initialisation. */
#include <linux/workqueue.h>
#include <linux/interrupt.h>

struct uart {
	struct work_struct rx_work;
	struct work_struct tx_work;
	int rx, tx;
};

static void uart_rx(void *data)
{
	struct uart *u = data;

	u->rx++;
}

static void uart_tx(void *data)
{
	struct uart *u = data;

	u->tx++;
}

static irqreturn_t uart_irq(int irq, void *dev_id)
{
	struct uart *u = dev_id;

	PREPARE_WORK(&u->rx_work, uart_rx, u);
	schedule_work(&u->rx_work);
	schedule_work(&u->tx_work);
	return IRQ_HANDLED;
}

static int uart_open(struct uart *u)
{
	PREPARE_WORK(&u->tx_work, uart_tx, u);
	return 0;
}

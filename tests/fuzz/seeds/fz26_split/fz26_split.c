// SPDX-License-Identifier: GPL-2.0
/*
 * The .c of a 2.6 driver in two files: the header's items on a private
 * queue (one armed as delayed work, re-armed by its handler), and a
 * function-local static item given to its handler as its data, which
 * re-arms it through that void *.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/workqueue.h>
#include "fz26_split.h"

static struct fzs_port fzs_port;

static void fzs_tx_task(void *data)
{
	struct fzs_port *port = data;

	port->sent++;
}

static void fzs_watchdog_task(void *data)
{
	struct fzs_port *port = data;

	port->barks++;
	queue_delayed_work(port->wq, &port->watchdog, HZ);
}

static void fzs_again_task(void *data)
{
	static int again;

	if (again++ < 3)
		schedule_delayed_work(data, 1);
}

void fzs_tx(struct fzs_port *port)
{
	queue_work(port->wq, &port->tx_work);
}

static int __init fzs_init(void)
{
	static struct work_struct again_work;

	fzs_port.wq = create_workqueue("fzs");
	if (!fzs_port.wq)
		return -ENOMEM;
	INIT_WORK(&fzs_port.tx_work, fzs_tx_task, &fzs_port);
	INIT_WORK(&fzs_port.watchdog, fzs_watchdog_task, &fzs_port);
	INIT_WORK(&again_work, fzs_again_task, &again_work);
	queue_delayed_work(fzs_port.wq, &fzs_port.watchdog, HZ);
	schedule_work(&again_work);
	fzs_tx(&fzs_port);
	return 0;
}

static void __exit fzs_exit(void)
{
	cancel_delayed_work(&fzs_port.watchdog);
	flush_workqueue(fzs_port.wq);
	destroy_workqueue(fzs_port.wq);
	flush_scheduled_work();
}

module_init(fzs_init);
module_exit(fzs_exit);
MODULE_LICENSE("GPL");

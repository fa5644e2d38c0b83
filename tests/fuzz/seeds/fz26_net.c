// SPDX-License-Identifier: GPL-2.0
/*
 * A small 2.6.0-2.6.19 driver for the fuzzer: a work item whose data is
 * its container, one whose data is not, delayed work on a plain
 * work_struct, a private single-thread queue, PREPARE_WORK, and an exit
 * that cancels and flushes.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/workqueue.h>

struct fz_net {
	struct work_struct reset_work;
	struct work_struct link_work;
	struct work_struct stats_work;
	int link;
	unsigned long stats;
};

static struct fz_net fz_net;
static int fz_port = 3;
static struct workqueue_struct *fz_wq;

static void fz_reset_task(void *data)
{
	struct fz_net *net = data;

	net->link = 0;
}

static void fz_link_task(void *data)
{
	int *port = data;

	fz_net.link = *port;
}

static void fz_stats_task(void *data)
{
	struct fz_net *net = data;

	net->stats++;
	queue_delayed_work(fz_wq, &net->stats_work, HZ);
}

static void fz_stats_once(void *data)
{
	struct fz_net *net = data;

	net->stats = 0;
}

void fz_irq(void)
{
	schedule_work(&fz_net.reset_work);
	schedule_delayed_work(&fz_net.link_work, 2);
}

static int __init fz_init(void)
{
	fz_wq = create_singlethread_workqueue("fz_net");
	if (!fz_wq)
		return -ENOMEM;
	INIT_WORK(&fz_net.reset_work, fz_reset_task, &fz_net);
	INIT_WORK(&fz_net.link_work, fz_link_task, &fz_port);
	INIT_WORK(&fz_net.stats_work, fz_stats_once, &fz_net);
	queue_work(fz_wq, &fz_net.stats_work);
	flush_workqueue(fz_wq);
	PREPARE_WORK(&fz_net.stats_work, fz_stats_task, &fz_net);
	queue_delayed_work(fz_wq, &fz_net.stats_work, HZ);
	return 0;
}

static void __exit fz_exit(void)
{
	cancel_delayed_work(&fz_net.stats_work);
	cancel_delayed_work(&fz_net.link_work);
	flush_workqueue(fz_wq);
	flush_scheduled_work();
	destroy_workqueue(fz_wq);
}

module_init(fz_init);
module_exit(fz_exit);
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * For foreign-queuer.sh: a 2.4 driver whose static task another module
 * (wqcompat_tq_queuer) queues onto tq_timer every jiffy, and whose exit
 * forgets to stop that.  Its unload must still end: the shim refuses to
 * list a going module's task, so the rounds of the unload do not keep
 * finding one (the review's N16).
 */
#include <linux/module.h>
#include <linux/tqueue.h>

#include "wqcompat_tq_queuer.h"

static void owner_fn(void *data)
{
	tq_queuer_ran();
}

static struct tq_struct owner_task = { routine: owner_fn, data: NULL };

static int __init owner_init(void)
{
	tq_queuer_start(&owner_task, THIS_MODULE);
	return 0;
}

static void __exit owner_exit(void)
{
	/* forgets the queuer, as the driver this stands for did */
}

module_init(owner_init);
module_exit(owner_exit);

MODULE_DESCRIPTION("wqport test: a 2.4 task another module keeps queueing");
MODULE_LICENSE("GPL");

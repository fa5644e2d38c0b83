// SPDX-License-Identifier: GPL-2.0
/*
 * A 2005-style module that leaves legacy delayed work armed when it is
 * unloaded (it "forgets" cancel_delayed_work in its exit).  On 2.6 the
 * timers then fired into freed memory.  wqcompat must cancel them at
 * MODULE_STATE_GOING and report the module by name.  Driven by unload.sh.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

static int w26u_ran;

static void w26u_handler(void *data)
{
	w26u_ran++;
}

static DECLARE_WORK(w26u_declared, w26u_handler, NULL);
static struct work_struct w26u_inited;

static int __init w26u_init(void)
{
	INIT_WORK(&w26u_inited, w26u_handler, &w26u_ran);
	if (!schedule_delayed_work(&w26u_declared, 1000 * HZ) ||
	    !schedule_delayed_work(&w26u_inited, 1000 * HZ))
		return -EINVAL;
	return 0;
}

static void __exit w26u_exit(void)
{
	/* Deliberately no cancel_delayed_work(): that is the bug under test. */
}

module_init(w26u_init);
module_exit(w26u_exit);

MODULE_DESCRIPTION("wqport test: unload with legacy delayed work pending");
MODULE_LICENSE("GPL");

/*
 * Rule 7: a private workqueue whose first use is inside a statement macro
 * with a block (2.6.18 ipr.c: schedule_work() after list_for_each_entry()
 * { ... }), in a function right after a macro defined empty under #else
 * (baycom_epp.c's GETTICK): its declaration goes before the function, not
 * before either macro, which are no functions.
 */
#include <linux/module.h>
#include <linux/list.h>
#include <linux/workqueue.h>

struct res {
	struct list_head queue;
	int add;
};

struct cfg {
	struct list_head used;
	struct work_struct work_q;
};

#ifdef CONFIG_X86
#define CFG_TICK(x) ((x) = 1)
#else
#define CFG_TICK(x)
#endif

static void cfg_change(struct cfg *cfg)
{
	struct res *res;
	int t = 0;

	CFG_TICK(t);
	list_for_each_entry(res, &cfg->used, queue) {
		if (res->add)
			break;
	}
	schedule_work(&cfg->work_q);
}

static void cfg_worker(void *data)
{
	struct cfg *cfg = data;

	cfg_change(cfg);
}

static void cfg_setup(struct cfg *cfg)
{
	INIT_WORK(&cfg->work_q, cfg_worker, cfg);
}

static void cfg_remove(struct cfg *cfg)
{
	flush_scheduled_work();
}

static int __init cfg_init(void)
{
	return 0;
}

static void __exit cfg_exit(void)
{
}

module_init(cfg_init);
module_exit(cfg_exit);

/* Code that must be left alone: no legacy workqueue use, modern forms,
 * a tasklet with func(data), unrelated .data fields. */
#include <linux/workqueue.h>
#include <linux/interrupt.h>

struct mod {
	struct work_struct w;
	struct delayed_work dw;
	struct tasklet_struct t;
	struct { void *data; } cfg;
};

static void mod_fn(struct work_struct *work)
{
	struct mod *m = container_of(work, struct mod, w);

	m->cfg.data = NULL;
	m->t.func(m->t.data);
}

static void mod_setup(struct mod *m)
{
	INIT_WORK(&m->w, mod_fn);
	INIT_DELAYED_WORK(&m->dw, mod_fn);
	schedule_delayed_work(&m->dw, HZ);
	cancel_delayed_work_sync(&m->dw);
}

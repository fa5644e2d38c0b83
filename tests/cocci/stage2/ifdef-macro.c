/* #ifdef'd code and an item reached through a macro and a pointer. */
#include <linux/workqueue.h>

struct m {
	struct work_struct w;
	int v;
};

#define M_WORK(m) (&(m)->w)

static void m_fn(void *data)
{
	struct m *m = data;

	m->v++;
}

static void m_setup(struct m *m, struct work_struct *extra)
{
#ifdef CONFIG_M_SLOW
	INIT_WORK(&m->w, m_fn, m);
#else
	INIT_WORK(&m->w, m_fn, m);
#endif
	schedule_work(M_WORK(m));
	schedule_delayed_work(extra, 1);
}

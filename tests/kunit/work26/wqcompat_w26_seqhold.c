// SPDX-License-Identifier: GPL-2.0
/*
 * For seqhold.sh: this CPU stops between the two seqcount writes of
 * PREPARE_WORK (wqcompat_w26_set_handler()) on a bound item's record, as
 * a driver's PREPARE_WORK interrupted there would, for HOLD_MS, with
 * interrupts on; meanwhile a hard-IRQ hrtimer on the same CPU first-queues
 * a fresh item every millisecond (each takes the shim's w26_lock), and
 * another module is unloaded (its unload looks at every record under
 * w26_lock).  That look must not wait for the seqcount under the lock:
 * the interrupt would then wait for the lock, and neither CPU would go on
 * (a hard lockup, before the fix).  The shim's test build counts the
 * unload's looks (delay point going_marked): one must end inside the
 * hold.  Parameters: "hold" (write: start), "holding", "done", "result"
 * (after done: the look ended inside the hold, and every item the
 * interrupt queued ran once).
 */
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#define HOLD_MS		3000
#define IRQ_ITEMS	4096
#define IRQ_EVERY_NS	NSEC_PER_MSEC

/* The shim's delay points and hit counts (its test build: compat/hooks.c). */
#include "wqcompat_hooks.h"

static struct work_struct held_item;
static struct work_struct *irq_items;
static atomic_t *irq_runs;
static unsigned int irq_next;
static bool irq_refused;
static struct hrtimer irq_timer;
static bool holding, done;
static char result[96] = "not held";
module_param(holding, bool, 0444);
module_param(done, bool, 0444);
module_param_string(result, result, sizeof(result), 0444);

static void held_fn(void *data)
{
}

static void irq_item_fn(void *data)
{
	atomic_inc(&irq_runs[(long)data]);
}

static enum hrtimer_restart irq_timer_fn(struct hrtimer *t)
{
	if (!READ_ONCE(holding) || irq_next >= IRQ_ITEMS)
		return HRTIMER_NORESTART;
	irq_refused |= !schedule_work(&irq_items[irq_next]);
	irq_next++;
	hrtimer_forward_now(t, ns_to_ktime(IRQ_EVERY_NS));
	return HRTIMER_RESTART;
}

static void hold_fn(struct work_struct *work)
{
	struct wqcompat_work26_rec *rec = wqcompat_w26_rec_of(&held_item);
	typeof(&wqcompat_test_hits) hits = symbol_get(wqcompat_test_hits);
	unsigned int i, once = 0;
	int marked;
	u64 until;

	if (!rec || !hits) {
		strscpy(result, !rec ? "not ok: the item has no record" :
			"not ok: a shim without delay points", sizeof(result));
		if (hits)
			symbol_put(wqcompat_test_hits);
		WRITE_ONCE(done, true);
		return;
	}
	marked = hits(WQCOMPAT_HOOK_GOING_MARKED);
	preempt_disable();
	raw_write_seqcount_begin(&rec->seq);	/* PREPARE_WORK, half done */
	WRITE_ONCE(holding, true);
	hrtimer_start(&irq_timer, ns_to_ktime(IRQ_EVERY_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	until = ktime_get_ns() + HOLD_MS * NSEC_PER_MSEC;
	while (ktime_get_ns() < until)
		cpu_relax();
	marked = hits(WQCOMPAT_HOOK_GOING_MARKED) - marked;	/* inside the hold */
	WRITE_ONCE(holding, false);
	raw_write_seqcount_end(&rec->seq);
	preempt_enable();
	symbol_put(wqcompat_test_hits);
	hrtimer_cancel(&irq_timer);
	flush_scheduled_work();
	for (i = 0; i < irq_next; i++)
		once += atomic_read(&irq_runs[i]) == 1;
	snprintf(result, sizeof(result),
		 "%s unload looks in the hold %d, queued %u in hard IRQ, ran once %u, refused %d",
		 marked > 0 && irq_next && once == irq_next && !irq_refused ?
		 "ok" : "not ok", marked, irq_next, once, irq_refused);
	WRITE_ONCE(done, true);
}

static DECLARE_WORK(hold_work, hold_fn);

static int hold_set(const char *val, const struct kernel_param *kp)
{
	(queue_work_on)(cpumask_first(cpu_online_mask), system_wq, &hold_work);
	return 0;
}

static const struct kernel_param_ops hold_ops = {
	.set = hold_set,
};
module_param_cb(hold, &hold_ops, NULL, 0200);

static int __init seqhold_init(void)
{
	long i;

	irq_items = kcalloc(IRQ_ITEMS, sizeof(*irq_items), GFP_KERNEL);
	irq_runs = kcalloc(IRQ_ITEMS, sizeof(*irq_runs), GFP_KERNEL);
	if (!irq_items || !irq_runs) {
		kfree(irq_items);
		kfree(irq_runs);
		return -ENOMEM;
	}
	for (i = 0; i < IRQ_ITEMS; i++)
		INIT_WORK(&irq_items[i], irq_item_fn, (void *)i);
	hrtimer_init(&irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	irq_timer.function = irq_timer_fn;
	/* bound now: its record is the one held */
	INIT_WORK(&held_item, held_fn, NULL);
	schedule_work(&held_item);
	flush_scheduled_work();
	return 0;
}

static void __exit seqhold_exit(void)
{
	cancel_work_sync(&hold_work);
	hrtimer_cancel(&irq_timer);
	flush_scheduled_work();
	kfree(irq_items);
	kfree(irq_runs);
}

module_init(seqhold_init);
module_exit(seqhold_exit);

MODULE_DESCRIPTION("wqport test: PREPARE_WORK interrupted between its seqcount writes");
MODULE_LICENSE("GPL");

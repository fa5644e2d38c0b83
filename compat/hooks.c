// SPDX-License-Identifier: GPL-2.0
/*
 * The test build's delay points (compat/wqcompat_hooks.h).
 * Linked into wqcompat.ko only when it is built with WQCOMPAT_TEST_HOOKS=1.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "wqcompat_hooks.h"

/* The points' names, for the parameters below (in the order of the enum). */
static const char *const hook_names[] = {
	[WQCOMPAT_HOOK_TQ_POPPED] = "tq_popped",
	[WQCOMPAT_HOOK_SCHEDULE_TASK] = "schedule_task",
	[WQCOMPAT_HOOK_GOING_BEGIN] = "going_begin",
	[WQCOMPAT_HOOK_RECLAIM_GONE] = "reclaim_gone",
	[WQCOMPAT_HOOK_PLAIN_TAKEN] = "plain_taken",
	[WQCOMPAT_HOOK_GOING_MARKED] = "going_marked",
	[WQCOMPAT_HOOK_QUEUE_OWNED] = "queue_owned",
	[WQCOMPAT_HOOK_HAND_WAIT] = "hand_wait",
	[WQCOMPAT_HOOK_FLUSH_NOTED] = "flush_noted",
	[WQCOMPAT_HOOK_PLAIN_CANCELLED] = "plain_cancelled",
	[WQCOMPAT_HOOK_DESTROY_TIMERS] = "destroy_timers",
	[WQCOMPAT_HOOK_RUN_BEGIN] = "run_begin",
	[WQCOMPAT_HOOK_RUN_ENDED] = "run_ended",
	[WQCOMPAT_HOOK_FLUSH_SCANNED] = "flush_scanned",
	[WQCOMPAT_HOOK_FLUSHER_DONE] = "flusher_done",
};
static_assert(ARRAY_SIZE(hook_names) == WQCOMPAT_HOOK_NR);

static unsigned int test_delay_us[WQCOMPAT_HOOK_NR];

static int hook_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < WQCOMPAT_HOOK_NR; i++)
		if (hook_names[i] && strlen(hook_names[i]) == len &&
		    !strncmp(hook_names[i], name, len))
			return i;
	return -1;
}

/*
 * "off" sets every point's delay to 0; "NAME=US,NAME=US" sets those
 * points' (all or none: an unknown name or a bad number changes nothing).
 */
static int test_delay_set(const char *val, const struct kernel_param *kp)
{
	unsigned int us[WQCOMPAT_HOOK_NR];
	bool set[WQCOMPAT_HOOK_NR] = {};
	char *buf, *cur, *item, *eq;
	int i, ret = 0;

	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cur = strim(buf);
	if (!strcmp(cur, "off")) {
		for (i = 0; i < WQCOMPAT_HOOK_NR; i++)
			WRITE_ONCE(test_delay_us[i], 0);
		goto out;
	}
	while ((item = strsep(&cur, ",")) != NULL) {
		eq = strchr(item, '=');
		i = eq ? hook_find(item, eq - item) : -1;
		if (i < 0 || kstrtouint(eq + 1, 10, &us[i])) {
			ret = -EINVAL;
			goto out;
		}
		set[i] = true;
	}
	for (i = 0; i < WQCOMPAT_HOOK_NR; i++)
		if (set[i])
			WRITE_ONCE(test_delay_us[i], us[i]);
out:
	kfree(buf);
	return ret;
}

/* One line a point: its name and its delay. */
static int test_delay_get(char *buf, const struct kernel_param *kp)
{
	int i, n = 0;

	for (i = 0; i < WQCOMPAT_HOOK_NR; i++)
		n += sysfs_emit_at(buf, n, "%s %u\n", hook_names[i],
				   READ_ONCE(test_delay_us[i]));
	return n;
}

static const struct kernel_param_ops test_delay_ops = {
	.set = test_delay_set,
	.get = test_delay_get,
};
module_param_cb(test_delay, &test_delay_ops, NULL, 0644);
MODULE_PARM_DESC(test_delay,
		 "test build only: microseconds to wait at delay points: NAME=US[,NAME=US...], or off (names: read it)");

static atomic_t test_delay_hits[WQCOMPAT_HOOK_NR];

/**
 * wqcompat_test_hits - times a delay point was reached
 * @point: enum wqcompat_hook
 *
 * For tests, which find it with symbol_get() (it exists in the test build
 * only) and wait for this count, a state, before they act in the window;
 * a module parameter would not do, since a parameter's write (such as
 * work26_reclaim) holds the lock that every read of one takes.
 * Context: any.
 * Return: the count, or -1 for no such point.
 */
int wqcompat_test_hits(unsigned int point)
{
	if (point >= WQCOMPAT_HOOK_NR)
		return -1;
	return atomic_read(&test_delay_hits[point]);
}
EXPORT_SYMBOL_GPL(wqcompat_test_hits);

/* One line a point: its name and the times it was reached. */
static int test_hits_get(char *buf, const struct kernel_param *kp)
{
	int i, n = 0;

	for (i = 0; i < WQCOMPAT_HOOK_NR; i++)
		n += sysfs_emit_at(buf, n, "%s %d\n", hook_names[i],
				   atomic_read(&test_delay_hits[i]));
	return n;
}

static const struct kernel_param_ops test_hits_ops = {
	.get = test_hits_get,
};
module_param_cb(test_hits, &test_hits_ops, NULL, 0444);
MODULE_PARM_DESC(test_hits, "test build only: times each delay point was reached");

void wqcompat_test_delay(enum wqcompat_hook point)
{
	unsigned int us = READ_ONCE(test_delay_us[point]);

	atomic_inc(&test_delay_hits[point]);
	if (!us)
		return;
	if (preemptible())
		fsleep(us);
	else
		udelay(us);
}

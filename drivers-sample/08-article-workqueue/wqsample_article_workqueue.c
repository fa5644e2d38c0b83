// SPDX-License-Identifier: GPL-2.0
/*
 * wqsample_article_workqueue: a driver written from "Driver porting: the
 * workqueue interface" (LWN, 2003) alone, in the 2.6.0-2.6.19 API.
 *
 * Handlers take the void * data given to DECLARE_WORK/INIT_WORK/PREPARE_WORK;
 * delayed work is a plain work_struct; the driver has a workqueue with a
 * thread per CPU, a single-threaded one, and uses the default "events" queue
 * too.  Every call the article describes appears, used the way it says.
 *
 * Only the deferred-work code is the 2.6 API; everything else is 6.1.
 *
 * debugfs, /sys/kernel/debug/wqsample/article_workqueue/:
 *   ctl    "demo":   the synchronous part (ordering, PREPARE_WORK, flushes,
 *                    cancel_delayed_work, destroy_workqueue); returns when done
 *          "events": schedule_work, flush_scheduled_work, then
 *                    schedule_delayed_work of the same item; state says when
 *                    the delayed run happened
 *   state  "idle", "events" or "events-done"
 *   log    the event log
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "wqsample_log.h"

#define ART_NAME	"article_workqueue"
#define ART_STEPS	3
#define ART_PARALLEL	4
#define ART_EVENT_DELAY	2	/* jiffies */

enum art_state { ART_IDLE, ART_EVENTS, ART_EVENTS_DONE };

static const char * const art_state_name[] = {
	[ART_IDLE]		= "idle",
	[ART_EVENTS]		= "events",
	[ART_EVENTS_DONE]	= "events-done",
};

struct art_dev;

/* One work item with its own data, queued on the single-threaded queue. */
struct art_step {
	struct work_struct work;
	struct art_dev *dev;
	int nr;
};

/* One of the items that run in parallel on the per-CPU queue. */
struct art_par {
	struct work_struct work;
	atomic_t *ran;
};

struct art_dev {
	struct workqueue_struct *multi_wq;	/* create_workqueue() */
	struct workqueue_struct *single_wq;	/* create_singlethread_workqueue() */

	struct work_struct gate_work;		/* holds single_wq until opened */
	struct completion gate;
	struct art_step steps[ART_STEPS];
	int steps_ran;

	struct work_struct msg_work;		/* PREPARE_WORK changes its routine */

	struct art_par par[ART_PARALLEL];
	atomic_t par_ran;

	struct work_struct timeout_work;	/* delayed 60 s, then cancelled */
	int timeout_ran;

	struct work_struct last_work;		/* queued just before destroy */
	int last_ran;

	/* on "events": plain, then delayed, on the default queue */
	struct work_struct event_work;
	spinlock_t lock;			/* protects state and event_* */
	enum art_state state;
	int event_runs;
	unsigned long event_due;		/* earliest jiffies of the delayed run */
	int event_early;

	struct mutex ctl_mutex;			/* one ctl command at a time */
};

static struct art_dev art;
static struct wqsample_log art_log;
static struct dentry *art_dir;

/* Statically declared work, with data, for the default queue. */
struct art_hello {
	const char *greeting;
	int runs;
};

static struct art_hello art_hello_data = {
	.greeting = "hello from DECLARE_WORK",
};

static void art_hello(void *data)
{
	struct art_hello *hello = data;

	hello->runs++;
}

static DECLARE_WORK(art_hello_work, art_hello, &art_hello_data);

static void art_gate(void *data)
{
	struct art_dev *dev = data;

	wait_for_completion(&dev->gate);
}

static void art_step(void *data)
{
	struct art_step *step = data;

	step->dev->steps_ran++;
	wqsample_log(&art_log, "step %d ran", step->nr);
}

static void art_msg_first(void *data)
{
	wqsample_log(&art_log, "msg: first routine ran");
}

static void art_msg_second(void *data)
{
	wqsample_log(&art_log, "msg: second routine ran");
}

static void art_par_run(void *data)
{
	struct art_par *par = data;

	atomic_inc(par->ran);
}

static void art_timeout(void *data)
{
	struct art_dev *dev = data;

	dev->timeout_ran++;
}

static void art_last(void *data)
{
	struct art_dev *dev = data;

	dev->last_ran++;
}

static void art_event(void *data)
{
	struct art_dev *dev = data;
	unsigned long now = jiffies;
	unsigned long flags;
	int run;

	spin_lock_irqsave(&dev->lock, flags);
	run = ++dev->event_runs;
	if (run == 2 && time_before(now, dev->event_due))
		dev->event_early = 1;
	spin_unlock_irqrestore(&dev->lock, flags);

	if (run == 1) {
		wqsample_log(&art_log, "event: run 1 (schedule_work)");
		return;
	}
	wqsample_log(&art_log, "event: run %d (schedule_delayed_work), not before its delay: %s",
		     run, dev->event_early ? "no" : "yes");
	spin_lock_irqsave(&dev->lock, flags);
	dev->state = ART_EVENTS_DONE;
	spin_unlock_irqrestore(&dev->lock, flags);
}

/* Ordering on the single-threaded queue, and the pending rule. */
static void art_demo_order(struct art_dev *dev)
{
	int i, ret;

	reinit_completion(&dev->gate);
	dev->steps_ran = 0;
	ret = queue_work(dev->single_wq, &dev->gate_work);
	wqsample_log(&art_log, "order: queue_work(gate) returned %d", !!ret);
	for (i = 0; i < ART_STEPS; i++) {
		ret = queue_work(dev->single_wq, &dev->steps[i].work);
		wqsample_log(&art_log, "order: queue_work(step %d) returned %d",
			     dev->steps[i].nr, !!ret);
	}
	/* Still behind the gate, so still pending: not queued twice. */
	ret = queue_work(dev->single_wq, &dev->steps[0].work);
	wqsample_log(&art_log, "order: queue_work(step %d) again returned %d",
		     dev->steps[0].nr, !!ret);

	complete(&dev->gate);
	flush_workqueue(dev->single_wq);
	wqsample_log(&art_log, "order: %d steps ran before flush_workqueue returned",
		     dev->steps_ran);
}

/* PREPARE_WORK changes the routine of an item that is not queued. */
static void art_demo_prepare(struct art_dev *dev)
{
	queue_work(dev->single_wq, &dev->msg_work);
	flush_workqueue(dev->single_wq);

	PREPARE_WORK(&dev->msg_work, art_msg_second, dev);
	queue_work(dev->single_wq, &dev->msg_work);
	flush_workqueue(dev->single_wq);

	/* Back as it was, for the next demo. */
	PREPARE_WORK(&dev->msg_work, art_msg_first, dev);
}

/* create_workqueue: one thread per CPU; flush waits for all of them. */
static void art_demo_multi(struct art_dev *dev)
{
	int i, queued = 0;

	atomic_set(&dev->par_ran, 0);
	for (i = 0; i < ART_PARALLEL; i++)
		queued += !!queue_work(dev->multi_wq, &dev->par[i].work);
	flush_workqueue(dev->multi_wq);
	wqsample_log(&art_log, "multi: %d queued, %d ran before flush_workqueue returned",
		     queued, atomic_read(&dev->par_ran));
}

/* DECLARE_WORK with data, on the default queue. */
static void art_demo_declare(void)
{
	int ret;

	art_hello_data.runs = 0;
	ret = schedule_work(&art_hello_work);
	flush_scheduled_work();
	wqsample_log(&art_log, "declare: schedule_work returned %d, ran %d time(s) before flush_scheduled_work returned, greeting \"%s\"",
		     !!ret, art_hello_data.runs, art_hello_data.greeting);
}

/* Delayed work on a plain work_struct, cancelled before its time. */
static void art_demo_cancel(struct art_dev *dev)
{
	int ret;

	dev->timeout_ran = 0;
	ret = queue_delayed_work(dev->multi_wq, &dev->timeout_work, 60 * HZ);
	wqsample_log(&art_log, "cancel: queue_delayed_work returned %d", !!ret);
	ret = queue_delayed_work(dev->multi_wq, &dev->timeout_work, 60 * HZ);
	wqsample_log(&art_log, "cancel: queue_delayed_work again returned %d", !!ret);
	ret = cancel_delayed_work(&dev->timeout_work);
	wqsample_log(&art_log, "cancel: cancel_delayed_work returned %d", !!ret);
	ret = cancel_delayed_work(&dev->timeout_work);
	wqsample_log(&art_log, "cancel: cancel_delayed_work again returned %d", !!ret);
	flush_workqueue(dev->multi_wq);
	wqsample_log(&art_log, "cancel: the cancelled work ran %d time(s)",
		     dev->timeout_ran);
}

/* destroy_workqueue flushes first. */
static void art_demo_destroy(struct art_dev *dev)
{
	struct workqueue_struct *wq;

	wq = create_singlethread_workqueue("wqs_tmp");
	if (!wq) {
		wqsample_log(&art_log, "destroy: create_singlethread_workqueue failed");
		return;
	}
	dev->last_ran = 0;
	queue_work(wq, &dev->last_work);
	destroy_workqueue(wq);
	wqsample_log(&art_log, "destroy: work queued before destroy_workqueue ran %d time(s)",
		     dev->last_ran);
}

static int art_events(struct art_dev *dev)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&dev->lock, flags);
	if (dev->state == ART_EVENTS) {
		spin_unlock_irqrestore(&dev->lock, flags);
		return -EBUSY;
	}
	dev->state = ART_EVENTS;
	dev->event_runs = 0;
	dev->event_early = 0;
	spin_unlock_irqrestore(&dev->lock, flags);

	ret = schedule_work(&dev->event_work);
	flush_scheduled_work();
	wqsample_log(&art_log, "events: schedule_work returned %d", !!ret);

	/*
	 * Queued under the lock (it never sleeps), so that the delayed run,
	 * which takes the lock first, logs after this.
	 */
	spin_lock_irqsave(&dev->lock, flags);
	dev->event_due = jiffies + ART_EVENT_DELAY;
	ret = schedule_delayed_work(&dev->event_work, ART_EVENT_DELAY);
	wqsample_log(&art_log, "events: schedule_delayed_work returned %d", !!ret);
	spin_unlock_irqrestore(&dev->lock, flags);
	return 0;
}

static ssize_t art_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[16];
	int ret = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&art.ctl_mutex);
	if (sysfs_streq(buf, "demo")) {
		art_demo_order(&art);
		art_demo_prepare(&art);
		art_demo_multi(&art);
		art_demo_declare();
		art_demo_cancel(&art);
		art_demo_destroy(&art);
	} else if (sysfs_streq(buf, "events")) {
		ret = art_events(&art);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&art.ctl_mutex);
	return ret ? ret : count;
}

static ssize_t art_state_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	enum art_state state;
	unsigned long flags;
	char buf[16];
	int len;

	spin_lock_irqsave(&art.lock, flags);
	state = art.state;
	spin_unlock_irqrestore(&art.lock, flags);

	len = scnprintf(buf, sizeof(buf), "%s\n", art_state_name[state]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations art_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= art_ctl_write,
	.llseek	= noop_llseek,
};

static const struct file_operations art_state_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= art_state_read,
	.llseek	= default_llseek,
};

static int __init art_init(void)
{
	struct art_dev *dev = &art;
	int i;

	dev->multi_wq = create_workqueue("wqs_multi");
	if (!dev->multi_wq)
		return -ENOMEM;
	dev->single_wq = create_singlethread_workqueue("wqs_single");
	if (!dev->single_wq) {
		destroy_workqueue(dev->multi_wq);
		return -ENOMEM;
	}

	init_completion(&dev->gate);
	INIT_WORK(&dev->gate_work, art_gate, dev);
	for (i = 0; i < ART_STEPS; i++) {
		dev->steps[i].dev = dev;
		dev->steps[i].nr = i + 1;
		INIT_WORK(&dev->steps[i].work, art_step, &dev->steps[i]);
	}
	INIT_WORK(&dev->msg_work, art_msg_first, dev);
	for (i = 0; i < ART_PARALLEL; i++) {
		dev->par[i].ran = &dev->par_ran;
		INIT_WORK(&dev->par[i].work, art_par_run, &dev->par[i]);
	}
	INIT_WORK(&dev->timeout_work, art_timeout, dev);
	INIT_WORK(&dev->last_work, art_last, dev);
	INIT_WORK(&dev->event_work, art_event, dev);
	spin_lock_init(&dev->lock);
	dev->state = ART_IDLE;
	mutex_init(&dev->ctl_mutex);

	wqsample_log_init(&art_log);
	art_dir = wqsample_debugfs_create(ART_NAME, &art_log);
	debugfs_create_file("ctl", 0200, art_dir, NULL, &art_ctl_fops);
	debugfs_create_file("state", 0444, art_dir, NULL, &art_state_fops);
	return 0;
}

static void __exit art_exit(void)
{
	struct art_dev *dev = &art;

	wqsample_debugfs_remove(art_dir);

	/* As the article says: cancel delayed entries, then flush. */
	cancel_delayed_work(&dev->timeout_work);
	flush_workqueue(dev->multi_wq);
	destroy_workqueue(dev->multi_wq);
	destroy_workqueue(dev->single_wq);

	cancel_delayed_work(&dev->event_work);
	flush_scheduled_work();
}

module_init(art_init);
module_exit(art_exit);

MODULE_DESCRIPTION("wqport sample 8: the 2.6 workqueue API as the LWN article describes it");
MODULE_AUTHOR("wqport developers");
MODULE_LICENSE("GPL");

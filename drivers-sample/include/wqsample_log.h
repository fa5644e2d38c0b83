/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqsample_log.h: the event log every sample driver keeps, and its debugfs
 * directory /sys/kernel/debug/wqsample/NAME/.
 *
 * The log is how a scenario proves that the legacy source on the shim, its
 * stage 1 conversion and its stage 2 conversion behave the same: it holds
 * lines that depend on counts and order only, never on timing, and the
 * scenario prints it.  This header is not deferred-work code and is never
 * converted: it uses only the modern API, and includes nothing that the
 * shim overlays differently from the kernel.
 *
 * The log is append-only.  Writers serialise on a spinlock and may call from
 * any context, hard IRQ included.  Readers take no lock: a writer publishes a
 * line by storing the new length with release semantics after the bytes, and
 * a reader copies at most the length it loaded with acquire semantics.
 */
#ifndef _WQSAMPLE_LOG_H
#define _WQSAMPLE_LOG_H

#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/stdarg.h>

#define WQSAMPLE_LOG_SIZE	4096

struct wqsample_log {
	spinlock_t lock;
	size_t len;		/* bytes published to readers */
	bool full;		/* a line did not fit; it and later ones were dropped */
	char buf[WQSAMPLE_LOG_SIZE];
};

/**
 * wqsample_log_init() - make an empty log
 * @log: the log
 *
 * Context: process context, before the log is used.
 */
static inline void wqsample_log_init(struct wqsample_log *log)
{
	spin_lock_init(&log->lock);
	log->len = 0;
	log->full = false;
}

/**
 * wqsample_log() - append one line to the log
 * @log: the log
 * @fmt: printf format of the line, without the newline
 *
 * A line that does not fit is dropped and the log ends with "log full".
 *
 * Context: any, hard IRQ included.  Never sleeps.
 */
static inline __printf(2, 3)
void wqsample_log(struct wqsample_log *log, const char *fmt, ...)
{
	static const char full_msg[] = "log full\n";
	unsigned long flags;
	size_t len, room;
	va_list ap;
	int n;

	spin_lock_irqsave(&log->lock, flags);
	if (log->full)
		goto out;
	len = log->len;
	/* keep room for the newline and for the "log full" line */
	room = sizeof(log->buf) - len - sizeof(full_msg);
	va_start(ap, fmt);
	n = vsnprintf(log->buf + len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= room) {
		memcpy(log->buf + len, full_msg, sizeof(full_msg) - 1);
		len += sizeof(full_msg) - 1;
		log->full = true;
	} else {
		len += n;
		log->buf[len++] = '\n';
	}
	smp_store_release(&log->len, len);
out:
	spin_unlock_irqrestore(&log->lock, flags);
}

static inline ssize_t wqsample_log_read(struct file *file, char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct wqsample_log *log = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, log->buf,
				       smp_load_acquire(&log->len));
}

static const struct file_operations wqsample_log_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= wqsample_log_read,
	.llseek	= default_llseek,
};

/**
 * wqsample_debugfs_create() - create /sys/kernel/debug/wqsample/@name/log
 * @name: the sample's name
 * @log: its event log
 *
 * Creates the shared "wqsample" directory when no other sample did.
 *
 * Context: process context (module init).
 * Return: the sample's directory, for its other files, or an error pointer
 * (debugfs calls accept it and do nothing).
 */
static inline struct dentry *wqsample_debugfs_create(const char *name,
						     struct wqsample_log *log)
{
	struct dentry *top, *dir;

	top = debugfs_lookup("wqsample", NULL);
	if (!top) {
		top = debugfs_create_dir("wqsample", NULL);
		if (IS_ERR(top))
			return top;
		dget(top);
	}
	dir = debugfs_create_dir(name, top);
	dput(top);
	debugfs_create_file("log", 0444, dir, log, &wqsample_log_fops);
	return dir;
}

/**
 * wqsample_debugfs_remove() - remove a sample's directory
 * @dir: what wqsample_debugfs_create() returned
 *
 * Removes the shared "wqsample" directory too when it is left empty.
 *
 * Context: process context (module exit).
 */
static inline void wqsample_debugfs_remove(struct dentry *dir)
{
	struct dentry *top;

	if (IS_ERR_OR_NULL(dir))
		return;
	top = dget_parent(dir);
	debugfs_remove(dir);
	if (simple_empty(top))
		debugfs_remove(top);
	dput(top);
}

#endif /* _WQSAMPLE_LOG_H */

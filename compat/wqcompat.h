/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the parts of wqcompat.ko.  Not for drivers:
 * drivers include <linux/tqueue.h> and <linux/workqueue.h> from
 * compat/include.
 */
#ifndef _WQCOMPAT_INTERNAL_H
#define _WQCOMPAT_INTERNAL_H

#include <linux/module.h>

struct dentry;

/* debugfs directory /sys/kernel/debug/wqcompat (may be an error pointer) */
extern struct dentry *wqcompat_debugfs;

/* 2.4 task queues and bottom halves: tqueue.c, bh.c, keventd.c, tq_module.c */
int wqcompat_tqueue_init(void);
void wqcompat_tqueue_exit(void);


/* 2.6.0-2.6.19 workqueue API: work26*.c */
int wqcompat_work26_init(void);
void wqcompat_work26_exit(void);
struct w26_going;
void wqcompat_work26_going_begin(struct w26_going *going, struct module *mod);
unsigned int wqcompat_work26_going_round(struct module *mod);
void wqcompat_work26_going_end(struct w26_going *going);

#endif /* _WQCOMPAT_INTERNAL_H */

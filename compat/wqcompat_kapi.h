/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel APIs wqcompat.ko uses that changed
 * after 6.1, under their newest names, in the style of Linux backports'
 * backport-include: the shim's files call the new name, and on a kernel
 * that predates it this header maps it onto the old one.  One place to
 * look when a kernel renames something; nothing else in compat/ tests a
 * version.
 *
 *	new name			since	old name
 *	timer_container_of()		6.16	from_timer()
 *	timer_delete(), _sync()		6.2	del_timer(), del_timer_sync()
 *					(Debian's 6.1 has both)
 *	WQCOMPAT_WQ_BH			6.9	WQ_BH, or 0: no BH workqueues
 *	wqcompat_assign_str(dst, src)	6.10	__assign_str(dst, src); from
 *					6.10 __assign_str(dst) takes src
 *					from __string(dst, src)
 */
#ifndef _WQCOMPAT_KAPI_H
#define _WQCOMPAT_KAPI_H

#include <linux/timer.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#ifndef timer_container_of
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "wqcompat.ko needs Linux 6.1 or later"
#endif

/* BH workqueues (WQ_BH): work items run in softirq context. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define WQCOMPAT_WQ_BH WQ_BH
#else
#define WQCOMPAT_WQ_BH 0
#endif

/* In a TRACE_EVENT's TP_fast_assign(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define wqcompat_assign_str(dst, src) __assign_str(dst)
#else
#define wqcompat_assign_str(dst, src) __assign_str(dst, src)
#endif

#endif /* _WQCOMPAT_KAPI_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * at76c503a / ndiswrapper style: the driver's own names for the
 * workqueue calls, plain aliases of the kernel's.
 */
#ifndef XA_COMPAT_H
#define XA_COMPAT_H
#include <linux/workqueue.h>

#define SCHEDULE_WORK schedule_work
#define FLUSH_SCHEDULED_WORK flush_scheduled_work
/* used with a data argument: the 2.6.0-2.6.19 form behind it */
#define XA_INIT_OLD INIT_WORK
/* used with the modern arity only: nothing old behind it */
#define XA_INIT_WORK INIT_WORK
#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acx100 (2005) style: the driver's own name for INIT_WORK, forwarding its
 * three parameters; REORDER_WORK does not forward them as they come.
 */
#ifndef ACX_COMPAT_H
#define ACX_COMPAT_H
#include <linux/workqueue.h>

#define INIT_WORK_COMPAT(w, f, d) \
	INIT_WORK(w, f, d)
#define REORDER_WORK(w, d, f) INIT_WORK(w, f, d)
#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef QA_COMPAT_H
#define QA_COMPAT_H

#include <linux/tqueue.h>

/* the driver's own name for its task type */
#define QA_TASK struct tq_struct

#endif

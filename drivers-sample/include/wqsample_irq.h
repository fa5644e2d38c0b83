/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqsample_irq.h: the samples' stand-in for a device interrupt.
 *
 * A sample raises its "interrupts" with a hard-IRQ hrtimer, and its handler
 * takes the driver's spinlock_t, as a 2.4 or 2.6 interrupt handler did.  A
 * handler that request_irq() installs may do so: on PREEMPT_RT it would run
 * threaded, and lockdep knows it.  An hrtimer callback is not such a
 * handler, so lockdep's raw-lock nesting check (the debug kernel's
 * PROVE_RAW_LOCK_NESTING) would report every spin_lock() in it.
 * wqsample_irq_enter(), first thing in the callback, tells lockdep that
 * this one stands for a threadable device interrupt.  Not deferred-work
 * code: the conversions leave it alone.
 */
#ifndef _WQSAMPLE_IRQ_H
#define _WQSAMPLE_IRQ_H

#include <linux/irqflags.h>

static inline void wqsample_irq_enter(void)
{
	lockdep_hardirq_threaded();
}

#endif /* _WQSAMPLE_IRQ_H */

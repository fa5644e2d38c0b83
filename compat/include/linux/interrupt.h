/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/interrupt.h> overlay: the kernel's header, plus the Linux 2.4
 * bottom halves (mark_bh, init_bh, remove_bh) on wqcompat.ko (compat/bh.c).
 */
#include_next <linux/interrupt.h>

#ifndef _WQCOMPAT_LINUX_INTERRUPT_H
#define _WQCOMPAT_LINUX_INTERRUPT_H

/*
 * 2.4.18's bottom-half numbers (include/linux/interrupt.h, unchanged from
 * 2.4.0 to 2.4.37).  TIMER_BH, TQUEUE_BH and IMMEDIATE_BH belong to the
 * shim: TQUEUE_BH runs tq_timer, IMMEDIATE_BH runs tq_immediate, TIMER_BH
 * does nothing (the kernel's own timers run elsewhere).  Drivers own the
 * others, up to WQCOMPAT_NR_BH - 1.
 */
enum {
	TIMER_BH = 0,
	TQUEUE_BH,
	DIGI_BH,
	SERIAL_BH,
	RISCOM8_BH,
	SPECIALIX_BH,
	AURORA_BH,
	ESP_BH,
	SCSI_BH,
	IMMEDIATE_BH,
	CYCLADES_BH,
	CM206_BH,
	JS_BH,
	MACSERIAL_BH,
	ISICOM_BH
};

#define WQCOMPAT_NR_BH 32

void wqcompat_mark_bh(int nr);
void wqcompat_init_bh(int nr, void (*routine)(void));
void wqcompat_remove_bh(int nr);

#define mark_bh(nr)			wqcompat_mark_bh(nr)
#define init_bh(nr, routine)		wqcompat_init_bh(nr, routine)
#define remove_bh(nr)			wqcompat_remove_bh(nr)

#endif /* _WQCOMPAT_LINUX_INTERRUPT_H */

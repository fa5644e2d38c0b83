/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqport_macros.h: macros of 2.4 and 2.6 kernels that spatch's own
 * standard.h gets wrong for them, or lacks, where a driver's deferred work
 * sits next to them.  wqport_spatch.py appends this file to spatch's
 * standard.h (a later definition wins) and gives the result to every spatch
 * run of wqport as --macro-file-builtins.  Each entry says where the
 * kernel defined the macro and which driver needs it; a definition here
 * only tells spatch how to parse, the driver's text keeps the macro.
 */

/*
 * include/asm-generic/percpu.h (2.6): standard.h's expansion puts the
 * section attribute between "static" and the type, which spatch cannot
 * parse (2.6.18 drivers/char/random.c, drivers/cpufreq/).
 */
#define DEFINE_PER_CPU(type, name) __typeof__(type) per_cpu__##name


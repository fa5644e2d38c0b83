/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cases that need two CPUs (the guests have two): the first two online,
 * or the case is skipped.
 */
#ifndef _WQCOMPAT_W26_CPUS_H
#define _WQCOMPAT_W26_CPUS_H

#include <linux/cpumask.h>

/* The first two online CPUs in @cpus: false if only one is online. */
static inline bool w26_two_cpus(int cpus[2])
{
	cpus[0] = cpumask_first(cpu_online_mask);
	cpus[1] = cpumask_next(cpus[0], cpu_online_mask);
	return cpus[1] < nr_cpu_ids;
}

#endif /* _WQCOMPAT_W26_CPUS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What wqcompat_tq_queuer exports to wqcompat_tq_owner (foreign-queuer.sh).
 */
#ifndef _WQCOMPAT_TQ_QUEUER_H
#define _WQCOMPAT_TQ_QUEUER_H

struct tq_struct;
struct module;

void tq_queuer_start(struct tq_struct *task, struct module *owner);
void tq_queuer_ran(void);

#endif /* _WQCOMPAT_TQ_QUEUER_H */

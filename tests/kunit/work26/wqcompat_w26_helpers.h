/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the helper modules of the work26 scenarios export to the modules
 * under test (stale.sh: wqcompat_w26_blocker; owner.sh: wqcompat_w26_peer;
 * lend.sh: wqcompat_w26_lender; plain-cancel.sh: wqcompat_w26_holder;
 * late-queue.sh: wqcompat_w26_quitter).
 */
#ifndef _WQCOMPAT_W26_HELPERS_H
#define _WQCOMPAT_W26_HELPERS_H

struct work_struct;
struct workqueue_struct;

void w26b_block(struct workqueue_struct *wq);
void peer_use(struct work_struct *legacy, struct work_struct *plain,
	      struct workqueue_struct *wq);
struct work_struct *lender_work(void);
struct work_struct *holder_work(void);
struct work_struct *quitter_work(void);

#endif /* _WQCOMPAT_W26_HELPERS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 2.6.0-2.6.19 driver in two files for the fuzzer: the header declares
 * the structure with its items, a plain one and one the .c arms as
 * delayed work.
 */
#ifndef FZ26_SPLIT_H
#define FZ26_SPLIT_H

#include <linux/workqueue.h>

struct fzs_port {
	struct work_struct tx_work;
	struct work_struct watchdog;
	struct workqueue_struct *wq;
	int sent;
	int barks;
};

void fzs_tx(struct fzs_port *port);

#endif /* FZ26_SPLIT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* madwifi (2005) style: the driver names its tasklets tq_struct. */
#include <linux/interrupt.h>
#define tq_struct tasklet_struct
#define ATH_INIT_TQUEUE(a,b,c)		tasklet_init((a),(b),(unsigned long)(c))
#define ATH_SCHEDULE_TQUEUE(a,b)	tasklet_schedule((a))
typedef unsigned long TQUEUE_ARG;

struct ath_softc {
	struct tq_struct sc_rxtq;
	struct tq_struct sc_txtq;
	int sc_rxcount;
};

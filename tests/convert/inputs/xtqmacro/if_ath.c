// SPDX-License-Identifier: GPL-2.0
/* Tasklets under 2.4 names (if_athvar.h): nothing for wqport to do. */
#include <linux/module.h>
#include "if_athvar.h"

static void ath_rx_tasklet(TQUEUE_ARG data)
{
	struct ath_softc *sc = (struct ath_softc *)data;

	sc->sc_rxcount++;
}

static void ath_tx_tasklet(TQUEUE_ARG data)
{
}

int ath_attach(struct ath_softc *sc)
{
	ATH_INIT_TQUEUE(&sc->sc_rxtq, ath_rx_tasklet, sc);
	ATH_INIT_TQUEUE(&sc->sc_txtq, ath_tx_tasklet, sc);
	return 0;
}

void ath_intr(struct ath_softc *sc)
{
	int needmark = 0;

	ATH_SCHEDULE_TQUEUE(&sc->sc_rxtq, &needmark);
	tasklet_kill(&sc->sc_txtq);
}

/* SPDX-License-Identifier: GPL-2.0 */
/* What wqcompat_race_blocker exports to the module under test (race-pop.sh). */
#ifndef _WQCOMPAT_RACE_BLOCKER_H
#define _WQCOMPAT_RACE_BLOCKER_H

void race_block_keventd(void);
void race_release_after(unsigned int ms);

#endif /* _WQCOMPAT_RACE_BLOCKER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For a case whose promise includes "the kernel's checkers stay quiet"
 * (lockdep, debugobjects, KASAN): what a report of theirs leaves behind,
 * taken before the case acts and compared after, so that the case fails
 * by itself, not only the run's log scan.  Lockdep's report switches
 * debug_locks off; a WARN (debugobjects' "object is on stack" among them)
 * taints TAINT_WARN; KASAN's report taints TAINT_BAD_PAGE.  On a kernel
 * without lockdep the lockdep part is true by construction: there the case
 * proves its functional part and WARNs.  A flag already set when the case
 * begins (an earlier report in the boot) makes that part vacuous: the
 * run's log scan still fails it.
 */
#ifndef _WQCOMPAT_QUIET_H
#define _WQCOMPAT_QUIET_H

#include <linux/debug_locks.h>
#include <linux/kernel.h>

struct wqt_quiet {
	bool locks;
	bool warn;
	bool bad_page;
};

static inline struct wqt_quiet wqt_quiet_now(void)
{
	return (struct wqt_quiet) {
		.locks = !IS_ENABLED(CONFIG_LOCKDEP) || debug_locks,
		.warn = test_taint(TAINT_WARN),
		.bad_page = test_taint(TAINT_BAD_PAGE),
	};
}

/* @q: wqt_quiet_now() from before the case acted */
#define WQT_EXPECT_QUIET(test, q)					\
	do {								\
		struct wqt_quiet __now = wqt_quiet_now();		\
		bool lockdep_stayed_on = !(q).locks || __now.locks;	\
		bool no_new_warn = (q).warn || !__now.warn;		\
		bool no_new_kasan_report =				\
			(q).bad_page || !__now.bad_page;		\
									\
		KUNIT_EXPECT_TRUE(test, lockdep_stayed_on);		\
		KUNIT_EXPECT_TRUE(test, no_new_warn);			\
		KUNIT_EXPECT_TRUE(test, no_new_kasan_report);		\
	} while (0)

#endif /* _WQCOMPAT_QUIET_H */

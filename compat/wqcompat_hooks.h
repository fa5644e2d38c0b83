/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delay points that widen race windows, for the
 * tests that prove each race closed.  Compiled in only when wqcompat.ko is
 * built with WQCOMPAT_TEST_HOOKS=1 (tests/kunit); in every other build
 * wqcompat_test_delay() is an empty inline.
 *
 * In a test build, the module parameter test_delay takes delays by the
 * points' names, in microseconds (test_delay=flush_noted=500000; "off"
 * clears them all; reading it lists the names); a point sleeps when it
 * may, spins when not.  wqcompat_test_hits(point), and the parameter
 * test_hits by name, count the times a point was reached: a test waits for
 * that state, not for a time, before it acts inside the window.
 */
#ifndef _WQCOMPAT_HOOKS_H
#define _WQCOMPAT_HOOKS_H

enum wqcompat_hook {
	/* a task-queue run dropped the lock that popped a task */
	WQCOMPAT_HOOK_TQ_POPPED,
	/* schedule_task(): queue_task() returned 1, keventd not yet kicked */
	WQCOMPAT_HOOK_SCHEDULE_TASK,
	/* a module's unload began, before its first round */
	WQCOMPAT_HOOK_GOING_BEGIN,
	/* a reclaim pass found an item gone, before it takes w26_lock */
	WQCOMPAT_HOOK_RECLAIM_GONE,
	/* a 2.6 delayed call of a modern item has its record, not yet armed */
	WQCOMPAT_HOOK_PLAIN_TAKEN,
	/* a going module's records are marked dying, not yet cancelled */
	WQCOMPAT_HOOK_GOING_MARKED,
	/* queue_task() is about to own and list a task no one owns */
	WQCOMPAT_HOOK_QUEUE_OWNED,
	/* a worker got a legacy item that a flush runs by hand: it waits */
	WQCOMPAT_HOOK_HAND_WAIT,
	/* a flush from a handler on its queue noted what it waits for */
	WQCOMPAT_HOOK_FLUSH_NOTED,
	/* a cancel of a modern item's 2.6 timer won, PENDING not yet given back */
	WQCOMPAT_HOOK_PLAIN_CANCELLED,
	/* destroy_workqueue() marked the queue dying, not yet at its timers */
	WQCOMPAT_HOOK_DESTROY_TIMERS,
	/* a worker got a legacy item's shadow, its run not yet counted */
	WQCOMPAT_HOOK_RUN_BEGIN,
	/* a worker's run of a legacy item is counted over, not yet returned */
	WQCOMPAT_HOOK_RUN_ENDED,
	/* a flush of another queue from a handler scanned it, not yet waiting */
	WQCOMPAT_HOOK_FLUSH_SCANNED,
	/* the kernel's flush for a handler of another queue returned, said so */
	WQCOMPAT_HOOK_FLUSHER_DONE,
	WQCOMPAT_HOOK_NR
};

/*
 * Declared in every build, for the test modules, which find it with
 * symbol_get(): only the test build defines it.
 */
int wqcompat_test_hits(unsigned int point);

#ifdef WQCOMPAT_TEST_HOOKS
void wqcompat_test_delay(enum wqcompat_hook point);
/* A point only some callers reach: @cond is not evaluated outside tests. */
#define wqcompat_test_delay_if(cond, point)			\
	do {							\
		if (cond)					\
			wqcompat_test_delay(point);		\
	} while (0)
#else
static inline void wqcompat_test_delay(enum wqcompat_hook point) { }
#define wqcompat_test_delay_if(cond, point) do { } while (0)
#endif

#endif /* _WQCOMPAT_HOOKS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit-lite: the subset of KUnit's <kunit/test.h> that wqport's suites use,
 * for kernels built without CONFIG_KUNIT (Debian's stock kernel).
 *
 * Theory: the promises of the shim are written once, as KUnit suites.  On the
 * debug kernel (CONFIG_KUNIT=y) this header steps aside and the real KUnit
 * runs them.  On a kernel without KUnit, this header implements the same
 * macros and prints the same KTAP, so one source and one parser (kunit.py's)
 * serve both kernels.  Each case runs in its own kthread, as in KUnit, so a
 * failed KUNIT_ASSERT_*() ends only that case.
 *
 * tests/kunit/Kbuild puts this directory ahead of the kernel's include path
 * (NOSTDINC_FLAGS) only when CONFIG_KUNIT is off.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#include_next <kunit/test.h>
#else
#ifndef _WQPORT_KUNIT_LITE_H
#define _WQPORT_KUNIT_LITE_H

#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

struct kunit;

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	/* private: */
	int status;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

enum kunit_lite_status { KUNIT_LITE_OK, KUNIT_LITE_FAIL, KUNIT_LITE_SKIP };

struct kunit {
	void *priv;
	/* private: */
	const char *name;
	enum kunit_lite_status status;
	char skip_reason[128];
	struct list_head resources;
	struct completion done;
	struct kunit_case *test_case;
	struct kunit_suite *suite;
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }

#define kunit_printk(lvl, test, fmt, ...) \
	printk(lvl "    # %s: " fmt "\n", (test)->name, ##__VA_ARGS__)
#define kunit_info(test, fmt, ...) kunit_printk(KERN_INFO, test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...) kunit_printk(KERN_WARNING, test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) kunit_printk(KERN_ERR, test, fmt, ##__VA_ARGS__)

static inline void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	struct list_head *res = kmalloc(sizeof(*res) + size, gfp);

	if (!res)
		return NULL;
	list_add(res, &test->resources);
	return res + 1;
}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

static inline void kunit_lite_free_all(struct kunit *test)
{
	struct list_head *res, *tmp;

	list_for_each_safe(res, tmp, &test->resources) {
		list_del(res);
		kfree(res);
	}
}

static inline void kunit_lite_fail(struct kunit *test, bool abort,
				   const char *file, int line, const char *what)
{
	pr_info("    # %s: %s FAILED at %s:%d\n    %s\n", test->name,
		abort ? "ASSERTION" : "EXPECTATION", file, line, what);
	test->status = KUNIT_LITE_FAIL;
	if (abort)
		kthread_complete_and_exit(&test->done, 0);
}

#define KUNIT_LITE_CHECK(test, abort, cond, fmt, ...)			\
	do {								\
		if (!(cond)) {						\
			char __why[192];				\
			/* a bounded message: cut, not an error */	\
			scnprintf(__why, sizeof(__why), fmt, ##__VA_ARGS__); \
			kunit_lite_fail(test, abort, __FILE__, __LINE__, __why); \
		}							\
	} while (0)

#define KUNIT_LITE_BINARY(test, abort, l, op, r)			\
	do {								\
		typeof(l) __l = (l);					\
		typeof(r) __r = (r);					\
		KUNIT_LITE_CHECK(test, abort, __l op __r,		\
			"Expected %s %s %s, but %s == %lld, %s == %lld", \
			#l, #op, #r, #l, (long long)__l, #r, (long long)__r); \
	} while (0)

#define KUNIT_LITE_PTR(test, abort, l, op, r)				\
	do {								\
		const void *__l = (l), *__r = (r);			\
		KUNIT_LITE_CHECK(test, abort, __l op __r,		\
			"Expected %s %s %s, but %s == %px, %s == %px",	\
			#l, #op, #r, #l, __l, #r, __r);			\
	} while (0)

#define KUNIT_EXPECT_TRUE(t, c) KUNIT_LITE_CHECK(t, false, c, "Expected %s to be true", #c)
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_LITE_CHECK(t, false, !(c), "Expected %s to be false", #c)
#define KUNIT_EXPECT_EQ(t, l, r) KUNIT_LITE_BINARY(t, false, l, ==, r)
#define KUNIT_EXPECT_NE(t, l, r) KUNIT_LITE_BINARY(t, false, l, !=, r)
#define KUNIT_EXPECT_LT(t, l, r) KUNIT_LITE_BINARY(t, false, l, <, r)
#define KUNIT_EXPECT_LE(t, l, r) KUNIT_LITE_BINARY(t, false, l, <=, r)
#define KUNIT_EXPECT_GT(t, l, r) KUNIT_LITE_BINARY(t, false, l, >, r)
#define KUNIT_EXPECT_GE(t, l, r) KUNIT_LITE_BINARY(t, false, l, >=, r)
#define KUNIT_EXPECT_PTR_EQ(t, l, r) KUNIT_LITE_PTR(t, false, l, ==, r)
#define KUNIT_EXPECT_PTR_NE(t, l, r) KUNIT_LITE_PTR(t, false, l, !=, r)
#define KUNIT_EXPECT_NULL(t, p) KUNIT_LITE_PTR(t, false, p, ==, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p) KUNIT_LITE_PTR(t, false, p, !=, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(t, p) \
	KUNIT_LITE_CHECK(t, false, !IS_ERR_OR_NULL(p), "Expected %s is not error or NULL", #p)
#define KUNIT_EXPECT_STREQ(t, l, r) \
	KUNIT_LITE_CHECK(t, false, !strcmp(l, r), "Expected %s == %s", #l, #r)

#define KUNIT_ASSERT_TRUE(t, c) KUNIT_LITE_CHECK(t, true, c, "Expected %s to be true", #c)
#define KUNIT_ASSERT_FALSE(t, c) KUNIT_LITE_CHECK(t, true, !(c), "Expected %s to be false", #c)
#define KUNIT_ASSERT_EQ(t, l, r) KUNIT_LITE_BINARY(t, true, l, ==, r)
#define KUNIT_ASSERT_NE(t, l, r) KUNIT_LITE_BINARY(t, true, l, !=, r)
#define KUNIT_ASSERT_LT(t, l, r) KUNIT_LITE_BINARY(t, true, l, <, r)
#define KUNIT_ASSERT_LE(t, l, r) KUNIT_LITE_BINARY(t, true, l, <=, r)
#define KUNIT_ASSERT_GT(t, l, r) KUNIT_LITE_BINARY(t, true, l, >, r)
#define KUNIT_ASSERT_GE(t, l, r) KUNIT_LITE_BINARY(t, true, l, >=, r)
#define KUNIT_ASSERT_PTR_EQ(t, l, r) KUNIT_LITE_PTR(t, true, l, ==, r)
#define KUNIT_ASSERT_NOT_NULL(t, p) KUNIT_LITE_PTR(t, true, p, !=, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p) \
	KUNIT_LITE_CHECK(t, true, !IS_ERR_OR_NULL(p), "Expected %s is not error or NULL", #p)

#define KUNIT_FAIL(t, fmt, ...) KUNIT_LITE_CHECK(t, false, 0, fmt, ##__VA_ARGS__)
#define KUNIT_SUCCEED(t) do { } while (0)

#define kunit_mark_skipped(test, fmt, ...)				\
	do {								\
		(test)->status = KUNIT_LITE_SKIP;			\
		scnprintf((test)->skip_reason, sizeof((test)->skip_reason), \
			  fmt, ##__VA_ARGS__);				\
	} while (0)

#define kunit_skip(test, fmt, ...)					\
	do {								\
		kunit_mark_skipped(test, fmt, ##__VA_ARGS__);		\
		kthread_complete_and_exit(&(test)->done, 0);		\
	} while (0)

static inline int kunit_lite_case_thread(void *arg)
{
	struct kunit *test = arg;

	test->test_case->run_case(test);
	complete(&test->done);
	return 0;
}

/* Runs one suite and prints it as KUnit 6.1 does; returns 0 or -EFAULT. */
static inline int kunit_lite_run_suite(struct kunit_suite *suite, int number)
{
	struct kunit_case *c;
	struct task_struct *task;
	struct kunit test;
	int n = 0, total = 0, failed = 0;

	for (c = suite->test_cases; c->run_case; c++)
		total++;
	pr_info("    KTAP version 1\n");
	pr_info("    # Subtest: %s\n", suite->name);
	pr_info("    1..%d\n", total);
	if (suite->suite_init && suite->suite_init(suite)) {
		for (c = suite->test_cases; c->run_case; c++)
			pr_info("    not ok %d %s\n", ++n, c->name);
		pr_info("not ok %d %s\n", number, suite->name);
		return -EFAULT;
	}
	for (c = suite->test_cases; c->run_case; c++) {
		memset(&test, 0, sizeof(test));
		test.name = c->name;
		test.test_case = c;
		test.suite = suite;
		INIT_LIST_HEAD(&test.resources);
		init_completion(&test.done);
		if (suite->init && suite->init(&test)) {
			test.status = KUNIT_LITE_FAIL;
		} else {
			task = kthread_run(kunit_lite_case_thread, &test,
					   "kunit_lite_case");
			if (IS_ERR(task))
				test.status = KUNIT_LITE_FAIL;
			else
				wait_for_completion(&test.done);
			if (suite->exit)
				suite->exit(&test);
		}
		kunit_lite_free_all(&test);
		c->status = test.status;
		if (test.status == KUNIT_LITE_SKIP)
			pr_info("    ok %d %s # SKIP %s\n", ++n, c->name,
				test.skip_reason);
		else
			pr_info("    %s %d %s\n",
				test.status == KUNIT_LITE_FAIL ? "not ok" : "ok",
				++n, c->name);
		failed += test.status == KUNIT_LITE_FAIL;
	}
	if (suite->suite_exit)
		suite->suite_exit(suite);
	pr_info("%s %d %s\n", failed ? "not ok" : "ok", number, suite->name);
	return failed ? -EFAULT : 0;
}

/*
 * Like KUnit, a failing suite does not fail the module load: the KTAP says
 * what failed.  Suites are numbered from 1 in each module; the wqport test
 * harness numbers the top level of the whole run.  The suite array sits in
 * KUnit's own section, so the harness counts a module's suites the same way
 * for both kernels.
 */
#define kunit_test_suites(...)						\
	static struct kunit_suite *__kunit_lite_suites[]		\
		__used __section(".kunit_test_suites") = { __VA_ARGS__ }; \
	static int __init kunit_lite_init(void)				\
	{								\
		int i;							\
									\
		for (i = 0; i < ARRAY_SIZE(__kunit_lite_suites); i++)	\
			kunit_lite_run_suite(__kunit_lite_suites[i], i + 1); \
		return 0;						\
	}								\
	static void __exit kunit_lite_exit(void)			\
	{								\
	}								\
	module_init(kunit_lite_init);					\
	module_exit(kunit_lite_exit)

#define kunit_test_suite(suite) kunit_test_suites(&suite)

#endif /* _WQPORT_KUNIT_LITE_H */
#endif /* CONFIG_KUNIT */

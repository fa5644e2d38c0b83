// SPDX-License-Identifier: GPL-2.0
/* A clean module with a passing KUnit suite: `wqport test` must pass. */
#include <kunit/test.h>
#include <linux/module.h>

static void harness_ok_arith(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2 + 2, 4);
	KUNIT_EXPECT_TRUE(test, IS_ENABLED(CONFIG_MODULES));
}

static void harness_ok_alloc(struct kunit *test)
{
	int *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, *p, 0);
}

static struct kunit_case harness_ok_cases[] = {
	KUNIT_CASE(harness_ok_arith),
	KUNIT_CASE(harness_ok_alloc),
	{}
};

static struct kunit_suite harness_ok_suite = {
	.name = "harness_ok",
	.test_cases = harness_ok_cases,
};
kunit_test_suite(harness_ok_suite);

MODULE_DESCRIPTION("wqport harness: a module whose tests pass");
MODULE_LICENSE("GPL");

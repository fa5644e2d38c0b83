// SPDX-License-Identifier: GPL-2.0
/* A module with one failing KUnit case: `wqport test` must report a test failure. */
#include <kunit/test.h>
#include <linux/module.h>

static int harness_fail_answer = 41;
module_param(harness_fail_answer, int, 0444);

static void harness_fail_passes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static void harness_fail_fails(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, harness_fail_answer, 42);
}

static struct kunit_case harness_fail_cases[] = {
	KUNIT_CASE(harness_fail_passes),
	KUNIT_CASE(harness_fail_fails),
	{}
};

static struct kunit_suite harness_fail_suite = {
	.name = "harness_fail",
	.test_cases = harness_fail_cases,
};
kunit_test_suite(harness_fail_suite);

MODULE_DESCRIPTION("wqport harness: a module whose test fails");
MODULE_LICENSE("GPL");

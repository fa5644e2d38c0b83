# SPDX-License-Identifier: GPL-2.0
# Included by the Kbuild of every test module directory: the legacy overlay
# headers come ahead of the kernel's, and on a kernel without KUnit (Debian's
# stock kernel) so does kunit-lite's <kunit/test.h>.
wqport_top := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
NOSTDINC_FLAGS += -I$(wqport_top)/compat/include
# the shim's delay points by name ("wqcompat_hooks.h"), for the race tests
ccflags-y += -I$(wqport_top)/compat
# what the test modules share (wqcompat_quiet.h)
ccflags-y += -I$(wqport_top)/tests/kunit/include
ifndef CONFIG_KUNIT
NOSTDINC_FLAGS += -I$(wqport_top)/tests/kunit-lite/include
endif

# SPDX-License-Identifier: GPL-2.0
# Included by each suite's Kbuild (tests/kunit/NAME/Kbuild): the legacy overlay
# headers come ahead of the kernel's, and on a kernel without KUnit (Debian's
# stock kernel) so does kunit-lite's <kunit/test.h>.
NOSTDINC_FLAGS += -I$(src)/../../../compat/include
ifndef CONFIG_KUNIT
NOSTDINC_FLAGS += -I$(src)/../../kunit-lite/include
endif

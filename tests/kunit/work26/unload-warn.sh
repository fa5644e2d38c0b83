#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unload.sh in its WARN form: work26_unload_warn stays 1, so the unload of a
# module with delayed work armed WARNs naming it.  The run expects that
# finding (tests/kunit/work26/runs: --expect-finding wqcompat_work26_unload).
UNLOAD_WARN=1 exec sh /modules/unload.sh

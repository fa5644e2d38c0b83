#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unload-loop.sh in its WARN form: misuse_warn stays Y, so each unload of a
# module with tasks still queued WARNs naming it.  The run expects that
# finding (tests/kunit/tqueue/runs: --expect-finding wqcompat_tq_leaky).
WARN=1 LOOPS=2 exec sh /modules/unload-loop.sh

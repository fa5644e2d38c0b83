#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unload-loop.sh in its WARN form: misuse_warn and work26_unload_warn stay
# Y, so each unload of a module with work still queued WARNs naming it.
# The run expects that finding (tests/kunit/unload/runs: --expect-finding
# wqcompat_leaky).
WARN=1 LOOPS=2 exec sh /modules/unload-loop.sh

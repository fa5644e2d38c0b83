// SPDX-License-Identifier: GPL-2.0
/// create_workqueue/create_singlethread_workqueue -> alloc_workqueue/
/// alloc_ordered_workqueue.
///
/// In 2.6 create_workqueue(name) made one worker thread per CPU, each running
/// one item at a time, and create_singlethread_workqueue(name) one thread
/// running items one at a time in queueing order.  Both could make progress
/// under memory pressure, having their own threads.  Since 2.6.36 (Tejun Heo,
/// concurrency-managed workqueues) these names are deprecated wrappers.  The
/// same guarantees are spelled
///   alloc_workqueue(name, WQ_MEM_RECLAIM, 1)      per-CPU, one at a time
///   alloc_ordered_workqueue(name, WQ_MEM_RECLAIM) one at a time, in order
/// (what 6.1's wrappers expand to, less the internal __WQ_LEGACY flag).
/// A name that is not a plain string literal, or that holds '%', is passed
/// through "%s" because the new first argument is a format.
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: create_workqueue, create_singlethread_workqueue, alloc_workqueue
// Requires: create_workqueue create_singlethread_workqueue

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

def plain(n):
    """A string literal (or literals) without '%': usable as the format."""
    return re.match(r'^(\s*"[^"%\\]*"\s*)+$', n) is not None

@depends on patch@
expression N : script:python() { plain(N) };
@@
(
- create_workqueue(N)
+ alloc_workqueue(N, WQ_MEM_RECLAIM, 1)
|
- create_singlethread_workqueue(N)
+ alloc_ordered_workqueue(N, WQ_MEM_RECLAIM)
)

@depends on patch@
expression N : script:python() { not plain(N) };
@@
(
- create_workqueue(N)
+ alloc_workqueue("%s", WQ_MEM_RECLAIM, 1, N)
|
- create_singlethread_workqueue(N)
+ alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, N)
)

// context and org show the calls; report has nothing to say: every use converts.
@r depends on context@
expression N;
@@
(
* create_workqueue(N)
|
* create_singlethread_workqueue(N)
)

@o depends on org@
expression N;
position p;
@@
(
create_workqueue@p(N)
|
create_singlethread_workqueue@p(N)
)

@script:python depends on org@
p << o.p;
@@
coccilib.org.print_todo(p[0], 'wqport[W120]: deprecated: alloc_workqueue/alloc_ordered_workqueue with WQ_MEM_RECLAIM')

// report: every call converts, nothing to say (the rule keeps spatch happy
// when run with -D report alone).
@rep depends on report@
expression N;
position p;
@@
(
create_workqueue@p(N)
|
create_singlethread_workqueue@p(N)
)

@script:python depends on report@
p << rep.p;
@@
pass

// SPDX-License-Identifier: GPL-2.0
/// Uses of the 2.4 task-queue family that stage 1 leaves to a human.
///
/// Reports, with file, line and reason, every use stage 1 cannot convert
/// safely: tq_disk (block-layer unplugging), private DECLARE_TASK_QUEUE
/// queues and the custom bottom halves that run them, routines that relied on
/// bottom-half context against locks taken with spin_lock_bh(), a tq_struct
/// handed to code outside the task-queue family, its list/sync internals,
/// initializers nested in other structures and macros spatch cannot see
/// through.  Reasons ending "(task queues in this file left as they are)"
/// block: the other stage-1 patches then leave the whole file unchanged, so
/// that no task object ends half converted.  The analysis is in wqport_tq.py.
///
// Confidence: High
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers
// Requires: tq_struct tqueue task_queue queue_task schedule_task flush_scheduled_tasks run_task_queue INIT_TQUEUE PREPARE_TQUEUE DECLARE_TASK_QUEUE TQ_ACTIVE tq_timer tq_immediate tq_disk mark_bh init_bh remove_bh routine $WQPORT_TASKS

virtual context
virtual org
virtual report

@initialize:python@
@@
import os

def wqport_module(name):
    """wqport's Python module NAME, beside this .cocci (found from spatch's
    command line, or $WQPORT_COCCI_DIR) or in ../stage1.  Every .cocci
    with Python carries this same loader (tests/unit checks it): spatch
    1.1.1 looks for an #include of SmPL in its working directory, so a
    shared one would not be found under make coccicheck."""
    import importlib
    import sys
    dirs = []
    try:
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")
        for i, a in enumerate(argv[:-1]):
            if a in (b"--sp-file", b"--cocci-file"):
                dirs.append(os.path.dirname(os.path.abspath(argv[i + 1].decode())))
                break
    except (IOError, OSError):
        pass
    if os.environ.get("WQPORT_COCCI_DIR"):
        dirs.append(os.environ["WQPORT_COCCI_DIR"])
    for d in dirs:
        for x in (d, os.path.join(d, "..", "stage1")):
            if x not in sys.path:
                sys.path.insert(0, x)
    return importlib.import_module(name)

wqport_module("wqport_tq")     # (puts this directory on sys.path)
import wqport_tq
wqport_seen = set()

def wqport_report(f):
    if f not in wqport_seen:
        wqport_seen.add(f)
        for line, reason in wqport_tq.report_lines(f):
            print("%s:%d:0-0: %s" % (f, line, reason))

def wqport_org(f):
    if f not in wqport_seen:
        wqport_seen.add(f)
        for line, reason in wqport_tq.report_lines(f):
            print("* TODO [[view:%s::face=ovl-face1::linb=%d::colb=0::cole=0][%s]]" % (f, line, reason))

// One anchor per file: the analysis is textual, over the whole file.  A
// function; else (a header) an identifier in an expression or a macro;
// else a type.
@anchor depends on org || report@
identifier fn;
position p;
@@
fn@p(...) { ... }

@anchor2 depends on (org || report) && !anchor@
identifier x;
position p;
@@
x@p

@anchor3 depends on (org || report) && !anchor && !anchor2@
type T;
position p;
@@
T@p

@script:python depends on report@
p << anchor.p;
@@
wqport_report(p[0].file)

@script:python depends on report@
p << anchor2.p;
@@
wqport_report(p[0].file)

@script:python depends on report@
p << anchor3.p;
@@
wqport_report(p[0].file)

@script:python depends on org@
p << anchor.p;
@@
wqport_org(p[0].file)

@script:python depends on org@
p << anchor2.p;
@@
wqport_org(p[0].file)

@script:python depends on org@
p << anchor3.p;
@@
wqport_org(p[0].file)

// Context: the calls that need a human, wherever they are.
@depends on context@
expression T;
@@
(
* queue_task(T, &tq_disk)
|
* run_task_queue(&tq_disk)
|
* init_bh(...)
|
* remove_bh(...)
|
* disable_bh(...)
|
* enable_bh(...)
)

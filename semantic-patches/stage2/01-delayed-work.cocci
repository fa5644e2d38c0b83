/// Delayed work items become struct delayed_work.
///
/// Before 2.6.20 one struct work_struct served both queue_work() and
/// queue_delayed_work(): it carried the timer.  2.6.20 (David Howells,
/// "WorkStruct: Separate delayable and non-delayable events") split out
/// struct delayed_work { struct work_struct work; struct timer_list timer; }.
/// A work item used with any delayed call (queue_delayed_work,
/// schedule_delayed_work, cancel_delayed_work, cancel_rearming_delayed_work*)
/// therefore becomes struct delayed_work: its declaration (struct field, array,
/// global or local), INIT_WORK/PREPARE_WORK -> INIT_DELAYED_WORK/
/// PREPARE_DELAYED_WORK (PREPARE_DELAYED_WORK is finished by
/// 04-prepare-work.cocci), DECLARE_WORK -> DECLARE_DELAYED_WORK, work_pending()
/// -> delayed_work_pending(), and plain queue_work/schedule_work of it -> the
/// delayed call with delay 0, as the 2.6.20 conversions did.
///
/// The data argument stays (02-work-handler.cocci removes it).  An item is
/// recognised by its field or variable name (&p->name, &s.name, &name,
/// &p->name[i]).  It is left alone and reported when it is used in any other
/// way (passed on as a struct work_struct *, its members touched), and so is a
/// delayed call on an item reached through a pointer.
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: queue_delayed_work, schedule_delayed_work, delayed_work

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

DELAYED = {}    # file -> set of item keys used with a delayed call
BAD = {}        # file -> set of item keys used in other ways
KNOWN = {}      # file -> set of (line, col) of uses in known calls
CURFILE = [None]
REPORT = False
ORG = False
REPORTED = set()

def norm(s):
    return re.sub(r'\s+', '', s)

def item_key(x):
    """&p->name / &s.name / &name (with an optional [i]) -> key, else None."""
    x = norm(x)
    if x.startswith('&(') and x.endswith(')'):
        x = '&' + x[2:-1]
    m = re.match(r'^&(.+)(->|\.)(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('field', m.group(3))
    m = re.match(r'^&(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('var', m.group(1))
    return None

def say(p, msg):
    k = (p.file, p.line, p.column, msg)
    if k in REPORTED:
        return
    REPORTED.add(k)
    if REPORT:
        import coccilib.report
        coccilib.report.print_report(p, 'wqport: ' + msg)
    elif ORG:
        import coccilib.org
        coccilib.org.print_todo(p, 'wqport: ' + msg)

def delayed(k):
    return k is not None and k in DELAYED.get(CURFILE[0], set())

def is_ditem(x):
    return delayed(item_key(x))

def is_ok_item(x):
    k = item_key(x)
    return delayed(k) and k not in BAD.get(CURFILE[0], set())

def is_ok_field(f):
    k = ('field', f)
    return delayed(k) and k not in BAD.get(CURFILE[0], set())

def is_ok_var(v):
    k = ('var', v)
    return delayed(k) and k not in BAD.get(CURFILE[0], set())

def is_dfield(f):
    return delayed(('field', f))

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
CURFILE[0] = None

@script:python depends on report@
@@
REPORT = True

@script:python depends on org@
@@
ORG = True

// ---------------------------------------------------------------- facts

@dcall@
expression X, wq, d, cpu;
position p;
@@
(
schedule_delayed_work@p(X, d)
|
queue_delayed_work@p(wq, X, d)
|
schedule_delayed_work_on@p(cpu, X, d)
|
queue_delayed_work_on@p(cpu, wq, X, d)
|
cancel_delayed_work@p(X)
|
cancel_rearming_delayed_work@p(X)
|
cancel_rearming_delayed_workqueue@p(wq, X)
)

@script:python@
X << dcall.X;
p << dcall.p;
@@
CURFILE[0] = p[0].file
k = item_key(X)
if k is None:
    say(p[0], 'delayed call on %s, a work item reached through a pointer: '
        'make the item it points to a struct delayed_work and this pointer a '
        'struct delayed_work * by hand' % norm(X))
else:
    DELAYED.setdefault(p[0].file, set()).add(k)

// uses of a delayed item that this patch knows how to carry over
@known@
expression X : script:python() { is_ditem(X) };
expression wq, d, cpu;
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
position p;
@@
(
i(X@p, ...)
|
queue_work(wq, X@p)
|
schedule_work(X@p)
|
work_pending(X@p)
|
delayed_work_pending(X@p)
|
schedule_delayed_work(X@p, d)
|
queue_delayed_work(wq, X@p, d)
|
schedule_delayed_work_on(cpu, X@p, d)
|
queue_delayed_work_on(cpu, wq, X@p, d)
|
cancel_delayed_work(X@p)
|
cancel_delayed_work_sync(X@p)
|
cancel_rearming_delayed_work(X@p)
|
cancel_rearming_delayed_workqueue(wq, X@p)
)

@script:python@
p << known.p;
@@
KNOWN.setdefault(p[0].file, set()).add((p[0].line, p[0].column))

@anyuse@
expression X : script:python() { is_ditem(X) };
position p;
@@
X@p

@script:python@
X << anyuse.X;
p << anyuse.p;
@@
if (p[0].line, p[0].column) not in KNOWN.get(p[0].file, set()):
    k = item_key(X)
    BAD.setdefault(p[0].file, set()).add(k)
    say(p[0], '%s is used with delayed calls but also handed on here as a '
        'struct work_struct: it is not converted to struct delayed_work; '
        'convert it by hand (the struct work_struct inside is %s.work)'
        % (norm(X), norm(X)))

@member@
identifier fld : script:python() { is_dfield(fld) };
identifier m;
expression E;
position p;
@@
(
E->fld.m@p
|
E.fld.m@p
)

@script:python@
fld << member.fld;
m << member.m;
p << member.p;
@@
BAD.setdefault(p[0].file, set()).add(('field', fld))
say(p[0], 'member %s of work item %s is used directly: %s is not converted '
    'to struct delayed_work; convert it by hand' % (m, fld, fld))

// --------------------------------------------------------------- context

@depends on context@
expression X : script:python() { is_ok_item(X) };
expression wq;
@@
(
* queue_work(wq, X)
|
* schedule_work(X)
)

// ----------------------------------------------------------------- patch

@depends on patch@
identifier fld : script:python() { is_ok_field(fld) };
type T;
@@
T { ...
 struct
- work_struct
+ delayed_work
 fld;
 ... };

@depends on patch@
identifier fld : script:python() { is_ok_field(fld) };
type T;
expression N;
@@
T { ...
 struct
- work_struct
+ delayed_work
 fld[N];
 ... };

@depends on patch@
identifier v : script:python() { is_ok_var(v) };
expression N;
@@
(
 struct
- work_struct
+ delayed_work
 v;
|
 struct
- work_struct
+ delayed_work
 v[N];
)

@depends on patch@
declarer name DECLARE_WORK, DECLARE_DELAYED_WORK;
identifier v : script:python() { is_ok_var(v) };
expression list es;
@@
- DECLARE_WORK(v, es);
+ DECLARE_DELAYED_WORK(v, es);

@depends on patch@
expression X : script:python() { is_ok_item(X) };
expression wq;
expression list es;
@@
(
- INIT_WORK(X, es)
+ INIT_DELAYED_WORK(X, es)
|
- PREPARE_WORK(X, es)
+ PREPARE_DELAYED_WORK(X, es)
|
- queue_work(wq, X)
+ queue_delayed_work(wq, X, 0)
|
- schedule_work(X)
+ schedule_delayed_work(X, 0)
|
- work_pending(X)
+ delayed_work_pending(X)
)

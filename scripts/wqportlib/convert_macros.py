# SPDX-License-Identifier: GPL-2.0
"""A driver's function-like macro that hands one of its arguments to a
delayed-work call: a wrapper of delayed calls, as a function would be
(stage 2).

Drivers wrapped the workqueue calls in macros of their own:

	#define DRV_SCHEDULE_DELAYED_WORK(...) schedule_delayed_work(__VA_ARGS__)
	#define DRV_POLL_LATER(w)	queue_delayed_work(drv_wq, w, HZ)

Stage 2's rules see a use DRV_POLL_LATER(&d->poll) as a call of an unknown
function: the item it is given stays a struct work_struct, and the output
passes it to schedule_delayed_work() through the macro, which no modern
kernel compiles.  The rules already know wrappers that are functions (a
struct work_struct * parameter handed to a delayed call, 01-delayed-work.cocci):
a macro found here is given to them as one of those, its argument's index
in WQPORT_WRAPPER_CANDIDATES (its uses are counted in the facts pass) and,
when every use passes an item, in WQPORT_WRAPPERS, so that what it is given
becomes delayed work in every file of the run; the parameter its body
hands on, in WQPORT_MACRO_PARAMS, is no item reached through a pointer
(W101) but what each use passes.
"""
import re

from .convert_check import args_of, live_text

DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)', re.M)
# the delayed calls, and the index of the item among their arguments
DELAYED = {'schedule_delayed_work': 0, 'queue_delayed_work': 1,
           'schedule_delayed_work_on': 1, 'queue_delayed_work_on': 2,
           'cancel_delayed_work': 0, 'cancel_rearming_delayed_work': 0,
           'cancel_rearming_delayed_workqueue': 1}
CALL = re.compile(r'\b(%s)\s*\(' % '|'.join(sorted(DELAYED, key=len, reverse=True)))
PARAM = re.compile(r'^\(*\s*(\w+)\s*\)*$')


def wrappers(text):
    """{macro: (index of the argument it hands to a delayed call as the
    item, the parameter's name or None for __VA_ARGS__)} of the
    function-like macros TEXT defines (comments and literals aside), each
    the first delayed call of its body decides; a macro whose item is not
    one of its parameters, or whose parameters end in __VA_ARGS__ reaching
    the item at an unknown place, is left out."""
    out = {}
    live = live_text(text, ('stage2',))
    for m in DEFINE.finditer(live):
        name, params = m.group(1), [p.strip() for p in m.group(2).split(',')]
        body = m.group(3)
        call = CALL.search(body)
        if call is None or name in out:
            continue
        args = args_of(body, call.end() - 1)
        at = DELAYED[call.group(1)]
        named = [p for p in params if p and p != '...']
        va = [i for i, a in enumerate(args) if a == '__VA_ARGS__']
        if va and params and params[-1] == '...':
            if va[0] <= at:
                # __VA_ARGS__ spreads the macro's unnamed arguments from there
                out[name] = (len(named) + at - va[0], None)
            continue
        if at < len(args):
            p = PARAM.match(args[at].lstrip('&').strip())
            if p and p.group(1) in named:
                out[name] = (named.index(p.group(1)), p.group(1))
    return out

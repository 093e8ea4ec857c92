"""The Python end of `_skiff_static` (frontend/python/static.ts): functions bound once; calls
pass numbers and strings; a failed call returns 0 and `error()` gives the exception."""
import _skiff_static as _js

from .. import _bridge

set_static = _js.set_static
in_static = _js.in_static
program_new = _js.program_new
program_default = _js.program_default
program_clone = _js.program_clone
program_free = _js.program_free
program_text = _js.program_text
program_num_ops = _js.program_num_ops
guard_enter = _js.guard_enter
guard_exit = _js.guard_exit
data = _js.data
bind_parameter = _js.bind_parameter
value_meta = _js.value_meta
value_free = _js.value_free
feed_dtype = _js.feed_dtype
run = _js.run
scope_tensor = _js.scope_tensor
live_values = _js.live_values


def error():
    """The exception for the static call that just failed."""
    kind, _, msg = _js.last_error().partition('\x01')
    return _bridge._EXC.get(kind, RuntimeError)(msg)


def check(r):
    """r, or the pending error raised when r is the failure marker 0."""
    if type(r) is int and r == 0:
        raise error()
    return r

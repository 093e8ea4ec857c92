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
append_backward = _js.append_backward
gradients = _js.gradients
value_stop_gradient = _js.value_stop_gradient
value_set_stop_gradient = _js.value_set_stop_gradient
cond_begin = _js.cond_begin
cond_enter = _js.cond_enter
cond_exit = _js.cond_exit
cond_abort = _js.cond_abort
cond_end = _js.cond_end
while_begin = _js.while_begin
while_pre = _js.while_pre
while_enter = _js.while_enter
while_exit = _js.while_exit
while_abort = _js.while_abort
while_end = _js.while_end


def error():
    """The exception for the static call that just failed."""
    kind, _, msg = _js.last_error().partition('\x01')
    return _bridge._EXC.get(kind, RuntimeError)(msg)


def check(r):
    """r, or the pending error raised when r is the failure marker 0."""
    if type(r) is int and r == 0:
        raise error()
    return r

"""The Python end of the bridge to Skiff's TypeScript runtime (frontend/python/bridge.ts).

Every function here is a JS function bound once at import; calls pass numbers and strings only,
so an eager op is one crossing with no proxies. Handles of dropped tensors are batched:
`Tensor.__del__` appends small handles to `_pending`, flushed every `_BATCH` drops; handles of
large tensors (negative numbers) are freed at once so memory is returned promptly.
"""
import _skiff_bridge as _js

optable = _js.optable
un = _js.un          # un(op, h)                     unary op, default attributes
bin = _js.bin        # bin(op, ha, hb)               binary op on two tensors
bins = _js.bins      # bins(op * 8 + kind, h, value)  tensor with a Python scalar
call = _js.call      # call(op, tags, *values)       any op, tagged arguments
inplace = _js.inplace  # inplace(op, tags, *values)  op_ on input 0: 1, or 'v<id>' in paddle.static
meta = _js.meta      # meta(h) -> 'dtype;d0,d1;sg'
raw = _js.raw        # raw(h) -> bytes of the elements (a JS Uint8Array)
item = _js.item      # item(h, flat_index) -> number
format = _js.format  # format(h, prefix) -> Paddle's printed form of the tensor
printoptions = _js.printoptions  # printoptions(json) sets paddle.set_printoptions values
from_buffer = _js.from_buffer
set_stop_gradient = _js.set_stop_gradient
detach = _js.detach
copy = _js.copy
seed = _js.seed
free = _js.free
last_error = _js.last_error
live_handles = _js.live_handles
live_tensors = _js.live_tensors
proxy_balance = _js.proxy_balance
clear_caches = _js.clear_caches

_pending = []
_BATCH = 64


def release(h, _pending=_pending, _free=free):
    """Called by Tensor.__del__."""
    if h > 0:
        _pending.append(h)
        if len(_pending) >= _BATCH:
            flush_frees()
    elif h < 0:
        _free(h)


def flush_frees():
    """Frees every batched handle now (tests call it before reading memory counters)."""
    if _pending:
        hs = _pending[:]
        del _pending[:]
        free(*hs)


class AxisError(ValueError, IndexError):
    """An axis out of range: a ValueError (Paddle's InvalidArgument) that is also an IndexError (numpy's AxisError)."""


AxisError.__module__ = 'paddle'

_EXC = {
    'AxisError': AxisError,
    'ValueError': ValueError, 'TypeError': TypeError, 'IndexError': IndexError,
    'NotImplementedError': NotImplementedError, 'RuntimeError': RuntimeError,
    'KeyError': KeyError, 'ZeroDivisionError': ZeroDivisionError, 'MemoryError': MemoryError,
}


def error():
    """The exception for the call that just failed (it returned 0)."""
    kind, _, msg = last_error().partition('\x01')
    return _EXC.get(kind, RuntimeError)(msg)

"""paddle.jit.sot.psdb: debugging helpers the translator treats specially (Paddle's names).

Called eagerly they are plain functions. Met while translating:

- `breakgraph()` splits the graph there (break code SOT020; the call runs as a concrete step);
- `fallback(recursive=True)` makes the translated function run as plain Python (SOT120);
  `fallback()` (recursive=False) too, but the functions it calls through its globals are still
  translated, each on its own (SOT121, runtime._calls_translated), as in Paddle;
- `in_sot()` is the constant True (eagerly: True only inside a translated call's concrete step);
- `check_no_breakgraph(fn)` / `check_no_fallback(fn)` mark fn's code: a graph break (or a
  fallback) while fn's frame is being translated raises InnerError instead. Breaks where the
  user's own code raises (a KeyError from `d[k]`, a `raise` statement) are not graph breaks here,
  so the user's exception propagates unchanged.
"""
from .utils.exceptions import InnerError

# ids of code objects marked by check_no_breakgraph / check_no_fallback; the functions are kept
# so a code id is never reused by another code object while the mark exists.
NO_BREAKGRAPH_CODES = {}
NO_FALLBACK_CODES = {}


def _code_of(fn):
    code = getattr(getattr(fn, '__func__', fn), '__code__', None)
    if code is None:
        raise TypeError('psdb: expected a Python function, got %s' % type(fn).__name__)
    return code


def check_no_breakgraph(fn):
    """Marks fn: a graph break inside its frame raises InnerError. Returns fn."""
    code = _code_of(fn)
    NO_BREAKGRAPH_CODES[id(code)] = code
    return fn


def check_no_fallback(fn):
    """Marks fn: falling back to plain Python while translating it raises InnerError. Returns fn."""
    code = _code_of(fn)
    NO_FALLBACK_CODES[id(code)] = code
    return fn


def breakgraph():
    """A graph break here when translated; nothing eagerly."""
    return None


def fallback(recursive=False):
    """The translated function runs as plain Python from its start; nothing eagerly. With
    recursive=False (the default) the plain Python functions it reads from its globals are
    still translated, each on its own; recursive=True runs its callees as plain Python too."""
    return None


def assert_true(input):
    """Raises InnerError when input is false (Paddle's translator-level assertion)."""
    if not input:
        raise InnerError('psdb.assert_true: the assertion failed')
    return None


def in_sot():
    """Whether the caller runs inside the translator (True in translated code and in its
    concrete steps, False in plain eager code)."""
    from .runtime import _DEPTH
    return _DEPTH[0] > 0


def code_flags(code_id):
    """For the translator: 1 if the code is marked no-breakgraph, 2 if no-fallback (bits)."""
    return (1 if code_id in NO_BREAKGRAPH_CODES else 0) | (2 if code_id in NO_FALLBACK_CODES else 0)


__all__ = ['breakgraph', 'fallback', 'check_no_breakgraph', 'check_no_fallback', 'assert_true', 'in_sot']

"""paddle.jit.sot: the symbolic opcode translator's Python entry points."""
import types as _types
import weakref as _weakref

from .runtime import StaticFunction
from .translate import SymbolicFunction
from . import psdb  # noqa: F401
from . import utils  # noqa: F401

# One translated wrapper per function, as Paddle keys its cache by code: symbolic_translate(f)
# called again (Paddle's tests do it per call) reuses f's translations. OpcodeExecutorCache().clear()
# empties it.
_SYMBOLIC_CACHE = _weakref.WeakKeyDictionary()


def symbolic_translate(fn, **kwargs):
    """Translates `fn` on its calls (the same machinery as to_static, without Layer handling).
    Repeated calls with the same function share one cache; a bound method shares its function's
    (the instance is the first argument). Errors leaving it name the simulated stack in their
    message, as Paddle's do (translate.py)."""
    if isinstance(fn, StaticFunction):
        return fn
    if isinstance(fn, _types.MethodType) and isinstance(fn.__func__, _types.FunctionType):
        return _types.MethodType(_shared(fn.__func__), fn.__self__)
    if isinstance(fn, _types.FunctionType):
        return _shared(fn)
    return SymbolicFunction(fn)


def _shared(fn):
    sf = _SYMBOLIC_CACHE.get(fn)
    if sf is None:
        sf = _SYMBOLIC_CACHE[fn] = SymbolicFunction(fn)
    return sf


def skip_function(fn):
    """Paddle's skip_function: fn is never translated (calls from translated code run it as a
    concrete step; to_static of it runs it eagerly). Returns fn."""
    from ..import not_to_static
    return not_to_static(getattr(fn, '__func__', fn))


def explain(fn, *args, **kwargs):
    """Calls fn(*args) through the translator and reports what happened: graph count, ops per
    graph, each break with its code, file:line and source line, and the guards per entry."""
    import json
    import _skiff_sot
    from ...jit import to_static
    sf = fn if isinstance(fn, StaticFunction) else to_static(fn)
    sf(*args, **kwargs)
    if sf._fid == 0:
        return {'eager': True, 'eagerReason': 'translation is disabled', 'graphCount': 0, 'breaks': []}
    return json.loads(_skiff_sot.explain(sf._fid))


def show(fn, *args, path=None, format='html', **kwargs):
    """Calls fn(*args) (a function or an nn.Layer) through the translator and writes its captured
    graphs — ops with dtypes and shapes, parameters, fused ops, graph breaks with the user's source
    lines — as one self-contained HTML page (format='dot' or 'svg' for Graphviz text or an SVG).
    Returns the path written (default: <function name>_graphs.<format> in the working directory)."""
    import _skiff_sot
    from ...jit import to_static
    from ...nn.layer.layers import Layer
    if format not in ('html', 'dot', 'svg'):
        raise ValueError("show: format must be 'html', 'dot' or 'svg', got %r" % (format,))
    if isinstance(fn, Layer):
        to_static(fn)
        fn(*args, **kwargs)
        sf = fn.forward
        name = type(fn).__name__
    else:
        sf = fn if isinstance(fn, StaticFunction) else to_static(fn)
        sf(*args, **kwargs)
        name = getattr(sf, '__qualname__', 'fn')
    if not isinstance(sf, StaticFunction) or sf._fid == 0:
        raise RuntimeError('show: %s was not translated (paddle.jit.enable_to_static(False)?)' % name)
    text = _skiff_sot.show(sf._fid, format, name)
    if path is None:
        path = '%s_graphs.%s' % (''.join(c if c.isalnum() or c in '_-' else '_' for c in name), format)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return path


def translate_count(fn=None):
    """Translations of one wrapped function, or in total."""
    import _skiff_sot
    if fn is None:
        return _skiff_sot.translate_count(0)
    return _skiff_sot.translate_count(fn._fid) if fn._fid > 0 else 0

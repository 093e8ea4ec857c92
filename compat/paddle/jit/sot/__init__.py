"""paddle.jit.sot: the symbolic opcode translator's Python entry points."""
from .runtime import StaticFunction


def symbolic_translate(fn, **kwargs):
    """Translates `fn` on its calls (the same machinery as to_static, without Layer handling)."""
    return StaticFunction(fn)


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


def translate_count(fn=None):
    """Translations of one wrapped function, or in total."""
    import _skiff_sot
    if fn is None:
        return _skiff_sot.translate_count(0)
    return _skiff_sot.translate_count(fn._fid) if fn._fid > 0 else 0

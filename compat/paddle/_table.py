"""The op table, fetched from the TypeScript registry once (one JSON string) at import."""
import json

from . import _bridge


def _decode(v):
    if isinstance(v, dict) and '$f' in v:
        return float(v['$f'])
    if isinstance(v, list):
        return [_decode(x) for x in v]
    return v


OPS = json.loads(_bridge.optable())
for _e in OPS:
    for _a in _e['attrs']:
        if 'default' in _a:
            _a['default'] = _decode(_a['default'])
BY_NAME = {e['name']: e for e in OPS}


def op_id(*names):
    """Id of the first registered op among `names`, or -1."""
    for n in names:
        e = BY_NAME.get(n)
        if e is not None:
            return e['id']
    return -1


def entry(name):
    return BY_NAME.get(name)

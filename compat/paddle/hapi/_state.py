"""How paddle.Model.save/load store state dicts.

When `paddle.save`/`paddle.load` exist (Paddle's pickle format, issue 9's file-format work),
they are used. Until then Model writes Skiff's own simple format, which load always recognises
by its magic:

    b'SKIFFSD1' | uint32 little-endian header length | header (UTF-8 JSON) | tensor bytes

header = {"tensors": [{"name", "dtype", "shape", "offset", "nbytes"}, ...], "values": {...}}
where offsets count from the end of the header and tensor bytes are row-major little-endian
(each tensor's raw elements as the runtime stores them); "values" holds plain JSON entries
(an optimizer's step count, an LR scheduler's state).
"""
import json
import struct

from .. import _bridge
from ..dtype import dtype_of
from ..tensor import Tensor

MAGIC = b'SKIFFSD1'


def _bytes_of(t):
    b = _bridge.raw(t._h)
    if type(b) is int:
        raise _bridge.error()
    return b.to_bytes()


def dumps(state):
    entries, values, blobs, offset = [], {}, [], 0
    for k, v in state.items():
        if isinstance(v, Tensor):
            data = _bytes_of(v)
            if v.dtype.name in ('float16', 'bfloat16'):
                raise NotImplementedError("Model.save: Skiff's interim format stores float16/bfloat16 tensors only through paddle.save")
            entries.append({'name': k, 'dtype': v.dtype.name, 'shape': v.shape, 'offset': offset, 'nbytes': len(data)})
            blobs.append(data)
            offset += len(data)
        else:
            values[k] = v
    header = json.dumps({'tensors': entries, 'values': values}).encode('utf-8')
    return MAGIC + struct.pack('<I', len(header)) + header + b''.join(blobs)


def loads(data):
    import paddle
    if data[:8] != MAGIC or len(data) < 12:
        raise ValueError('not a Skiff state file (bad magic)')
    (n,) = struct.unpack('<I', data[8:12])
    if 12 + n > len(data):
        raise ValueError('Skiff state file is truncated (header)')
    header = json.loads(data[12:12 + n].decode('utf-8'))
    base = 12 + n
    out = dict(header.get('values', {}))
    for e in header['tensors']:
        start, end = base + e['offset'], base + e['offset'] + e['nbytes']
        if end > len(data):
            raise ValueError("Skiff state file is truncated (tensor '%s')" % e['name'])
        mv = memoryview(data[start:end]).cast(dtype_of(e['dtype']).fmt)
        t = paddle.to_tensor(mv, dtype=e['dtype'])
        out[e['name']] = t.reshape(e['shape'])
    return out


def save(state, path):
    import paddle
    f = getattr(paddle, 'save', None)
    if f is not None:
        return f(state, path)
    with open(path, 'wb') as fh:
        fh.write(dumps(state))


def load(path):
    with open(path, 'rb') as fh:
        data = fh.read()
    if data[:8] == MAGIC:
        return loads(data)
    import paddle
    f = getattr(paddle, 'load', None)
    if f is None:
        raise ValueError("%s is not in Skiff's state format and paddle.load is not available to read it" % path)
    return f(path)

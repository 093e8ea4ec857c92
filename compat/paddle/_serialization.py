"""paddle.save / paddle.load in PaddlePaddle's own format, so weights move both ways.

A .pdparams / .pdopt file is a pickle (protocol 2-4, default 4) of the object with every Tensor
turned into a numpy array. A dict holding Parameters also carries 'StructuredToParameterName@@'
(structured name -> parameter name), which load drops again; Paddle splits very large arrays
into slices listed under 'UnpackBigParamInfor@@', which load joins.

Loading never runs code from the file: the unpickler resolves only the globals numpy's array,
dtype and scalar pickles name (and OrderedDict); anything else — the way a hostile pickle calls
os.system — is refused before any object is built. A truncated or corrupted file raises a
ValueError naming the file; nothing is returned.
"""
import collections
import os

# pickle (with struct and io) is imported on first use: importing it costs ~90 ms of
# `import paddle` in Pyodide, and most programs never save or load.

STRUCTURE_KEY = 'StructuredToParameterName@@'
BIG_PARAM_KEY = 'UnpackBigParamInfor@@'

# (module, name) the unpickler may resolve; numpy 1.x and 2.x spell the array module differently.
_ALLOWED = {
    ('numpy.core.multiarray', '_reconstruct'), ('numpy._core.multiarray', '_reconstruct'),
    ('numpy.core.multiarray', 'scalar'), ('numpy._core.multiarray', 'scalar'),
    ('numpy', 'ndarray'), ('numpy', 'dtype'), ('collections', 'OrderedDict'),
    # protocol 2 has no bytes opcode: bytes are pickled as _codecs.encode(latin-1 text)
    ('_codecs', 'encode'),
}


_unpickler_class = None


def _restricted_unpickler():
    """The Unpickler subclass that resolves only _ALLOWED globals (made once, on first load)."""
    global _unpickler_class
    if _unpickler_class is None:
        import pickle

        class _RestrictedUnpickler(pickle.Unpickler):
            def __init__(self, f, where):
                super().__init__(f)
                self._where = where

            def find_class(self, module, name):
                if (module, name) not in _ALLOWED:
                    raise pickle.UnpicklingError(
                        "paddle.load: %s refers to the global '%s.%s', which is not allowed: Paddle's files hold only "
                        "numpy arrays, numbers, strings, lists and dicts" % (self._where, module, name))
                return super().find_class(module, name)

        _unpickler_class = _RestrictedUnpickler
    return _unpickler_class


def _to_saved(obj, where='obj'):
    """Tensors -> numpy arrays; containers recursively; plain values as they are."""
    from .tensor import Tensor
    import numpy as np
    if isinstance(obj, Tensor):
        return obj.numpy()
    if isinstance(obj, np.ndarray) or obj is None or isinstance(obj, (bool, int, float, str, bytes)):
        return obj
    if isinstance(obj, np.generic):
        return obj
    if isinstance(obj, dict):
        out = type(obj)() if isinstance(obj, collections.OrderedDict) else {}
        for k, v in obj.items():
            out[k] = _to_saved(v, '%s[%r]' % (where, k))
        return out
    if isinstance(obj, (list, tuple)):
        items = [_to_saved(v, '%s[%d]' % (where, i)) for i, v in enumerate(obj)]
        return items if isinstance(obj, list) else tuple(items)
    raise TypeError("paddle.save: %s is a %s; Paddle's format holds Tensors, numpy arrays, numbers, strings, "
                    "lists, tuples and dicts" % (where, type(obj).__name__))


def _structure_names(obj):
    """Paddle's mapping from a state dict's keys to its parameters' names (Parameters only)."""
    from .nn.layer.layers import Parameter
    return {k: v.name for k, v in obj.items() if isinstance(v, Parameter)}


def save(obj, path, protocol=4, **configs):
    """paddle.save(obj, path, protocol=4): obj is a state dict (of a Layer or an optimizer), a
    Tensor, or nested lists/dicts of them."""
    if not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise ValueError('paddle.save: protocol must be 2, 3 or 4, got %r' % (protocol,))
    if isinstance(path, (bytes, os.PathLike)):
        path = os.fsdecode(path)
    if not isinstance(path, str) and not hasattr(path, 'write'):
        raise TypeError('paddle.save: path must be a file path or a writable binary file, got %s' % type(path).__name__)
    saved = _to_saved(obj)
    if isinstance(obj, dict):
        names = _structure_names(obj)
        if names:
            saved[STRUCTURE_KEY] = names
    import pickle
    data = pickle.dumps(saved, protocol=protocol)
    if hasattr(path, 'write'):
        path.write(data)
        return
    d = os.path.dirname(path)
    if d:
        from .hapi.host import host_dir
        host_dir(d)
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:   # written whole, then renamed: a failed save leaves no half file
        f.write(data)
    os.replace(tmp, path)


def _unpickle(data, where):
    import io
    import pickle
    import struct
    try:
        return _restricted_unpickler()(io.BytesIO(data), where).load()
    except pickle.UnpicklingError as e:
        if 'is not allowed' in str(e):
            raise
        raise ValueError('paddle.load: %s is truncated or corrupted (%s)' % (where, e)) from None
    except (EOFError, IndexError, struct.error, KeyError, AttributeError, TypeError, ValueError, MemoryError) as e:
        raise ValueError('paddle.load: %s is truncated or corrupted (%s: %s)' % (where, type(e).__name__, e)) from None


def _join_big_params(state, where):
    info = state.pop(BIG_PARAM_KEY, None)
    if info is None:
        return state
    import numpy as np
    for name, spec in info.items():
        try:
            parts = [state.pop(k) for k in spec['slices']]
            state[name] = np.concatenate([p.reshape(-1) for p in parts]).reshape(tuple(spec['OriginShape']))
        except (KeyError, ValueError, TypeError) as e:
            raise ValueError('paddle.load: %s: the slices of the split parameter %r do not fit together (%s)' % (where, name, e)) from None
    return state


def _to_loaded(obj, return_numpy):
    import numpy as np
    import paddle
    if isinstance(obj, np.ndarray):
        return obj if return_numpy else paddle.to_tensor(obj)
    if isinstance(obj, dict):
        out = type(obj)() if isinstance(obj, collections.OrderedDict) else {}
        for k, v in obj.items():
            out[k] = _to_loaded(v, return_numpy)
        return out
    if isinstance(obj, list):
        return [_to_loaded(v, return_numpy) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_to_loaded(v, return_numpy) for v in obj)
    return obj


def load(path, **configs):
    """paddle.load(path, return_numpy=False): what paddle.save wrote (or PaddlePaddle did),
    numpy arrays as Tensors unless return_numpy=True."""
    return_numpy = bool(configs.pop('return_numpy', False))
    if hasattr(path, 'read'):
        data, where = path.read(), getattr(path, 'name', 'the file')
    else:
        where = os.fsdecode(path)
        if not os.path.exists(where):
            raise ValueError('paddle.load: %s does not exist' % where)
        if os.path.isdir(where):
            raise ValueError('paddle.load: %s is a directory; pass the .pdparams/.pdopt file itself' % where)
        with open(where, 'rb') as f:
            data = f.read()
    if not data[:1] == b'\x80':
        raise ValueError('paddle.load: %s is not a Paddle file (it does not start with a pickle header)' % where)
    obj = _unpickle(data, where)
    if isinstance(obj, dict):
        obj.pop(STRUCTURE_KEY, None)
        obj = _join_big_params(obj, where)
    return _to_loaded(obj, return_numpy)

"""np.save / np.load in the .npy format, version 1.0: the magic b'\\x93NUMPY', version bytes
1 0, a little-endian uint16 header length, a Python-literal dict header ('descr', 'fortran_order',
'shape') padded with spaces and a newline to a multiple of 64 bytes, then the raw data.
Skiff writes little-endian C order; it reads v1/v2/v3 headers, either byte order and Fortran
order. The header is parsed by a small literal reader (no eval)."""
import io
import os
import re
import struct
from array import array as _pyarray

import _skiff_bridge as _js
from paddle.creation import _from_buffer

from . import _dtypes as D
from ._array import asarray, from_python, wrap

MAGIC = b'\x93NUMPY'


def raw_bytes(a):
    """The array's elements in C order as little-endian bytes of its numpy dtype."""
    if a._dtype.name == 'float16' or a._dtype.wrap is not None:
        # float16 arrives widened; int16/uint16/uint32 live in wider storage: pack numpy's itemsize
        vals = a.reshape(-1).tolist() if a.ndim else [a.item()]
        return struct.pack('<%d%s' % (len(vals), a._dtype.char), *vals)
    b = _js.raw(a._t._h)
    if type(b) is int:
        from paddle._bridge import error
        raise error()
    return b.to_bytes()   # wasm memory is little-endian


def _header(a):
    shape = a.shape
    shape_s = '(%s)' % (', '.join(str(s) for s in shape) + (',' if len(shape) == 1 else ''))
    h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (a._dtype.str, shape_s)
    total = len(MAGIC) + 2 + 2 + len(h) + 1
    pad = (64 - total % 64) % 64
    return (h + ' ' * pad + '\n').encode('latin1')


def save(file, arr, allow_pickle=True, fix_imports=True):
    data = _npy_bytes(arr)
    if hasattr(file, 'write'):
        file.write(data)
        return
    path = os.fspath(file)
    if not path.endswith('.npy'):
        path += '.npy'
    with open(path, 'wb') as f:
        f.write(data)


def _parse_header(text):
    fields = {}
    for key, pat in (('descr', r"'descr'\s*:\s*'([^']*)'"), ('fo', r"'fortran_order'\s*:\s*(True|False)"), ('shape', r"'shape'\s*:\s*\(([\d\s,]*)\)")):
        m = re.search(pat, text)
        if m is None:
            raise ValueError('np.load: the .npy header has no %r: %r' % (key, text))
        fields[key] = m.group(1)
    shape = tuple(int(s) for s in fields['shape'].replace(' ', '').split(',') if s)
    return fields['descr'], fields['fo'] == 'True', shape


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII', max_header_size=10000):
    if hasattr(file, 'read'):
        data = file.read()
    else:
        with open(os.fspath(file), 'rb') as f:
            data = f.read()
    if data[:6] != MAGIC:
        if data[:2] == b'PK':
            return NpzFile(data)
        raise ValueError('np.load: not a .npy file (bad magic %r)' % data[:6])
    return _from_npy(data)


def _from_npy(data):
    major = data[6]
    if major == 1:
        hlen, start = struct.unpack('<H', data[8:10])[0], 10
    elif major in (2, 3):
        hlen, start = struct.unpack('<I', data[8:12])[0], 12
    else:
        raise ValueError('np.load: unsupported .npy format version %d.%d' % (major, data[7]))
    descr, fortran, shape = _parse_header(data[start:start + hlen].decode('latin1' if major < 3 else 'utf8'))
    return from_raw(data[start + hlen:], descr, shape, fortran, 'np.load')


def from_raw(body, descr, shape, fortran=False, who='np.load'):
    """An array from its raw element bytes (numpy dtype string `descr`, either byte order); the
    body must hold at least shape's elements (extra bytes are ignored). Shared by np.load and
    the pickle reconstruction (numpy/core/multiarray.py)."""
    big = descr.startswith('>')
    d = D._lookup('<' + descr[1:] if big else descr)
    n = 1
    for s in shape:
        if not isinstance(s, int) or s < 0:
            raise ValueError('%s: bad shape %r' % (who, shape))
        n *= s
    nbytes = n * d.itemsize
    if len(body) < nbytes:
        raise ValueError('%s: the data holds %d bytes, %d expected for shape %s %s' % (who, len(body), nbytes, tuple(shape), d.name))
    body = bytes(body[:nbytes])
    if big and d.itemsize > 1:
        arr = _pyarray({2: 'H', 4: 'I', 8: 'Q'}[d.itemsize])
        arr.frombytes(body)
        arr.byteswap()
        body = arr.tobytes()
    rshape = tuple(reversed(shape)) if fortran else shape
    if d.name == 'float16' or d.wrap is not None:
        vals = list(struct.unpack('<%d%s' % (n, d.char), body))
        a = from_python(vals, d).reshape(rshape) if n else from_python([], d).reshape(rshape)
    else:
        a = wrap(_from_buffer(body, d.storage, list(rshape), d.storage, True), d)
    return a.transpose().copy() if fortran and len(shape) > 1 else a


# --- .npz: a zip archive of .npy members --------------------------------------------------------
class NpzFile:
    """np.load of a .npz: a read-only mapping from names to arrays, loaded on access."""

    def __init__(self, data):
        import zipfile
        self._zip = zipfile.ZipFile(io.BytesIO(data))
        self.files = [n[:-4] if n.endswith('.npy') else n for n in self._zip.namelist()]

    def __getitem__(self, key):
        name = key + '.npy' if key + '.npy' in self._zip.namelist() else key
        if name not in self._zip.namelist():
            raise KeyError('%s is not a file in the archive' % key)
        return _from_npy(self._zip.read(name))

    def __contains__(self, key):
        return key in self.files

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return list(self.files)

    def items(self):
        return [(k, self[k]) for k in self.files]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._zip.close()


def _npy_bytes(a):
    a = asarray(a)
    h = _header(a)
    return MAGIC + bytes([1, 0]) + struct.pack('<H', len(h)) + h + raw_bytes(a)


def _savez(file, args, kwds, compress):
    import zipfile
    arrays = dict(('arr_%d' % i, a) for i, a in enumerate(args))
    for k, v in kwds.items():
        if k in arrays:
            raise ValueError('Cannot use un-named variables and keyword %s' % k)
        arrays[k] = v
    if not hasattr(file, 'write'):
        file = os.fspath(file)
        if not file.endswith('.npz'):
            file += '.npz'
    with zipfile.ZipFile(file, 'w', zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for k, v in arrays.items():
            z.writestr(k + '.npy', _npy_bytes(v))


def savez(file, *args, **kwds):
    _savez(file, args, kwds, False)


def savez_compressed(file, *args, **kwds):
    _savez(file, args, kwds, True)

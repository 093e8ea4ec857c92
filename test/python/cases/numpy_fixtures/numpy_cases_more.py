"""More groups of the differential table (imported by numpy_cases.py, which owns the helpers and
the serialisation): the wrapped dtypes int16 / uint16 / uint32, and the functions that run on
the registry's native kernels (sort/argsort/unique/nonzero, searchsorted/bincount/histogram,
repeat/roll/cumprod/diag, numpy.linalg), the buffer protocol."""
from numpy_cases import f32, f64, i64, _attrs


def i16(np, *shape):
    return (i64(np, *shape) * 9000).astype(np.int16)   # wraps past +-32767 for the larger shapes


def _set16(np):
    a = np.zeros(3, np.int16)
    a[:] = np.array([40000, -40000, 5])
    a[1] = 32767
    a += 1
    return a


def _set16_overflow(np):
    a = np.zeros(3, np.int16)
    a[0] = 40000
    return a


def _mask16(np):
    a = np.arange(4, dtype=np.int16)
    a[a > 1] = -7
    return a


def _iadd16(np):
    a = np.array([32767, -32768], np.int16)
    a += np.array([1, -1], np.int16)
    a *= 3
    return a


def _npy16(np):
    import io
    buf = io.BytesIO()
    np.save(buf, np.array([[1, -2], [300, -32768]], np.int16))
    data = buf.getvalue()
    buf.seek(0)
    return [len(data), data[-8:].hex(), np.load(buf)]


def _pickle16(np):
    import pickle
    a = np.array([7, -8], np.uint16)
    return pickle.loads(pickle.dumps(a))


def _sort_method(np):
    a = f64(np, 2, 3)[:, ::-1].copy()
    a.sort(axis=0, kind='stable')
    b = np.array([3, 1, 2], np.int8)
    b[::2].sort()
    return [a, b]


def _mv(np, a):
    m = memoryview(a)
    return [m.format, m.itemsize, list(m.shape), m.nbytes, m.tolist(), bytes(m).hex()]


def _svd_rebuild(np):
    a = f64(np, 3, 2) + np.array([[1.0, 0.0], [0.0, 2.0], [0.5, 0.5]])
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return [np.round(u @ np.diag(s) @ vh, 10), list(u.shape), list(vh.shape), np.round(s, 10)]


def _qr_rebuild(np):
    a = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, 1.0]])
    q, r = np.linalg.qr(a)
    return [np.round(q @ r, 10), list(q.shape), list(r.shape), np.round(np.abs(np.diag(r)), 10), np.round(q.T @ q, 10)]


def _eigh_rebuild(np):
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    w, v = np.linalg.eigh(a)
    return [np.round(w, 10), np.round(v @ np.diag(w) @ v.T, 10), np.round(np.abs(v.T @ v), 10)]


SPD = [[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]]

MORE = {
    # --- int16 / uint16 / uint32: stored wider, wrapped like numpy ---
    'int16': [lambda np: np.array([1, -32768, 32767], np.int16), lambda np: i16(np, 5), lambda np: np.array([1.9, -1.9], np.int16),
              lambda np: np.array([40000], np.int16), lambda np: np.array([1, 2], 'i2'), lambda np: np.zeros(3, np.int16),
              lambda np: np.full(2, 7, np.int16), lambda np: np.full(2, 40000, np.int16), lambda np: np.arange(5, dtype=np.int16),
              lambda np: np.array([1, -32768, 32767], np.int16) * np.array([1, -32768, 32767], np.int16),
              lambda np: np.array([30000, -30000], np.int16) + np.array([30000, -30000], np.int16),
              lambda np: np.array([-32768, 5], np.int16) - np.int16(1), lambda np: -np.array([1, -32768], np.int16),
              lambda np: np.abs(np.array([-5, -32768], np.int16)), lambda np: np.array([-32768, 7, -7], np.int16) // np.array([-1, 2, 2], np.int16),
              lambda np: np.array([-7, 7], np.int16) % np.int16(3), lambda np: np.array([3, -3, 181], np.int16) ** 3,
              lambda np: np.array([3, 4], np.int16) / np.array([2, 8], np.int16), lambda np: np.exp(np.array([1, 2], np.int16)),
              lambda np: np.sqrt(np.array([4, 9], np.int16)), lambda np: np.array([1, 2], np.int16) + 40000,
              lambda np: np.array([1, 2], np.int16) < 40000, lambda np: np.array([1, 2], np.int16) == -40000,
              lambda np: np.array([1, 2], np.int16) + 1.5, lambda np: np.array([1, 2], np.int16) * 3,
              lambda np: np.array([70000, -70000]).astype(np.int16), lambda np: np.array([70000], np.int32).astype(np.int16),
              lambda np: np.array([1.7e4, -2.9, 3.99]).astype(np.int16), lambda np: np.array([300, -1], np.int16).astype(np.uint8),
              lambda np: np.array([300, -1], np.int16).astype(np.float32), lambda np: np.array([True, False]).astype(np.int16),
              lambda np: np.sum(i16(np, 6)), lambda np: np.sum(np.full(4, 30000, np.int16), dtype=np.int16), lambda np: np.mean(i16(np, 4)),
              lambda np: np.prod(np.array([300, 300], np.int16)), lambda np: np.cumsum(np.full(3, 20000, np.int16)),
              lambda np: np.max(i16(np, 2, 3), axis=1), lambda np: np.argmin(i16(np, 6)), lambda np: np.std(np.array([1, 2, 4], np.int16)),
              lambda np: np.full((2, 2), 300, np.int16) @ np.full((2, 2), 300, np.int16), lambda np: np.dot(np.array([200, 200], np.int16), np.array([200, 200], np.int16)),
              lambda np: np.maximum(np.array([1, -5], np.int16), np.array([0, 2], np.int8)), lambda np: np.clip(np.array([-9, 9], np.int16), -1, 1),
              lambda np: ~np.array([0, -1, 5], np.int16), lambda np: np.array([6, 3], np.int16) & np.array([3, 3], np.int16),
              lambda np: np.sort(np.array([5, -32768, 3], np.int16)), lambda np: np.unique(np.array([5, -3, 5], np.int16)),
              lambda np: np.where(np.array([True, False]), np.array([1, 2], np.int16), np.array([3, 4], np.int16)),
              lambda np: np.concatenate([np.array([1], np.int16), np.array([2], np.int8)]), lambda np: i16(np, 2, 3)[:, ::-1],
              lambda np: i16(np, 2, 3).T.copy(), lambda np: _attrs(np, i16(np, 4, 3)[::2, 1:]), lambda np: i16(np, 3).tolist(),
              lambda np: _set16(np), lambda np: _set16_overflow(np), lambda np: _mask16(np), lambda np: _iadd16(np),
              lambda np: np.array([2, 3], np.int16).tobytes().hex(), lambda np: _npy16(np), lambda np: repr(np.array([1, -300], np.int16)),
              lambda np: repr(np.int16(5)), lambda np: np.int16(300) * np.int16(300), lambda np: np.int16(7) / np.int16(2),
              lambda np: np.int16(-32768) - 1, lambda np: np.iinfo(np.int16).min, lambda np: np.dtype(np.int16).itemsize, lambda np: str(np.dtype('i2'))],
    'int16_more': [lambda np: np.arange(40000, 40003, dtype=np.int16), lambda np: np.arange(0, 40003, 20000, dtype=np.int16),
                   lambda np: np.arange(250, 260, 5, dtype=np.uint8), lambda np: np.arange(-5, 3, dtype=np.uint8), lambda np: np.arange(3, dtype=np.uint32), lambda np: np.linspace(0, 70000, 3, dtype=np.int16),
                   lambda np: np.linspace(0, 10, 3, dtype=np.int16), lambda np: np.eye(2, dtype=np.uint16), lambda np: np.identity(2, np.int16),
                   lambda np: np.where(np.array([True, False]), np.array([1, 2], np.int16), 7), lambda np: np.pad(np.array([1], np.int16), 1, constant_values=9),
                   lambda np: np.pad(np.array([1], np.int16), 1, constant_values=40000), lambda np: np.array([1, 2], np.int16)[np.array([1, 0])],
                   lambda np: np.stack([np.array([1], np.int16), np.array([2], np.int16)]), lambda np: np.tile(np.array([1, 2], np.uint16), 2),
                   lambda np: np.ones_like(np.array([1], np.int16)), lambda np: np.zeros_like(np.array([1.5]), dtype=np.uint32),
                   lambda np: np.full_like(np.array([1, 2], np.int16), 9), lambda np: np.array([[1, 2], [3, 4]], np.int16).reshape(4),
                   lambda np: np.array([[1, 2], [3, 4]], np.int16).T.ravel(), lambda np: np.array([[1, 2], [3, 4]], np.int16)[:, 1:].sum(axis=0),
                   lambda np: np.array([5, 6], np.int16).item(1), lambda np: [type(x).__name__ for x in np.array([5, 6], np.int16)],
                   lambda np: np.array([np.int16(5), np.int16(6)]), lambda np: np.array([np.int16(5), np.int8(6)]), lambda np: np.array([np.int16(5), 1.5]),
                   lambda np: np.asarray([1, 2], dtype='h'), lambda np: np.array([1, 2], np.int16).astype(np.int16, copy=False),
                   lambda np: np.isclose(np.array([1, 2], np.int16), np.array([1, 3], np.int16)), lambda np: np.array_equal(np.array([1], np.int16), np.array([1])),
                   lambda np: np.median(np.array([1, 5, 3, 40], np.int16)), lambda np: np.cumsum(np.array([1, 2], np.int16), dtype=np.int16),
                   lambda np: np.round(np.array([5, -5], np.int16)), lambda np: np.floor(np.array([5], np.int16)), lambda np: np.sign(np.array([-5, 0, 5], np.int16)),
                   lambda np: np.square(np.array([200, 300], np.int16)), lambda np: np.isnan(np.array([1], np.int16)),
                   lambda np: np.einsum('i,i->', np.array([200, 200], np.int16), np.array([200, 200], np.int16)),
                   lambda np: np.outer(np.array([300, 2], np.int16), np.array([300, 3], np.int16)), lambda np: np.trace(np.full((2, 2), 30000, np.int16)),
                   lambda np: np.diff(np.array([-32768, 32767], np.int16)), lambda np: np.take(np.array([7, 8, 9], np.int16), [2, 0]),
                   lambda np: np.bincount(np.array([1, 1, 3], np.int16)), lambda np: np.searchsorted(np.array([1, 5], np.int16), np.array([3], np.int16)),
                   lambda np: np.histogram(np.array([1, 2, 3], np.int16), bins=2), lambda np: np.nonzero(np.array([0, 3, 0], np.int16)),
                   lambda np: np.argsort(np.array([3, -1, 2], np.uint16)), lambda np: np.unique(np.array([70000, 5, 70000], np.uint32), return_counts=True),
                   lambda np: np.linalg.det(np.array([[2, 1], [1, 2]], np.int16)), lambda np: np.linalg.inv(np.array([[2, 0], [0, 4]], np.uint16)),
                   lambda np: np.can_cast(np.int16, np.int32), lambda np: np.can_cast(np.int32, np.int16), lambda np: np.iinfo(np.uint16).max,
                   lambda np: np.iinfo('u4').max, lambda np: np.issubdtype(np.int16, np.signedinteger), lambda np: np.issubdtype(np.uint32, np.unsignedinteger),
                   lambda np: np.dtype('int16').num, lambda np: np.dtype('H').name, lambda np: np.dtype('uint32').str, lambda np: np.dtype('<i2').char,
                   lambda np: np.concatenate([np.array([40000.7, -2.5]), np.array([1.0])], dtype=np.int16, casting='unsafe'),
                   lambda np: np.sum(np.array([40000.0, 1.0]), dtype=np.int16), lambda np: np.cumprod(np.array([300.0, 300.0]), dtype=np.int16),
                   lambda np: np.random.default_rng(0).integers(0, 5, size=3, dtype=np.int16).dtype.name, lambda np: np.random.randint(0, 3, size=2, dtype=np.uint16).dtype.name],
    'int16_promotion': [lambda np: np.array([1], np.int8) + np.array([1], np.uint8), lambda np: np.array([100], np.int8) * np.array([200], np.uint8),
                        lambda np: np.array([1], np.int16) + np.array([1], np.uint8), lambda np: np.array([1], np.int16) + np.array([1], np.int8),
                        lambda np: np.array([1], np.int16) + np.array([1.5], np.float16), lambda np: np.array([1], np.int16) + np.array([1.5], np.float32),
                        lambda np: np.array([1], np.int16) + np.array([1], np.int32), lambda np: np.array([1], np.int16) + np.array([1], np.int64),
                        lambda np: np.array([1], np.int16) + np.array([True]), lambda np: np.array([1], np.int16) + np.float64(1.5),
                        lambda np: np.array([1], np.int16) + np.array([1], np.uint16), lambda np: np.array([1], np.uint16) + np.array([1], np.int8),
                        lambda np: np.array([1], np.uint32) + np.array([1], np.int32), lambda np: np.array([1], np.uint32) + np.array([1], np.float32),
                        lambda np: np.result_type(np.int16, np.uint16).name, lambda np: np.promote_types('i2', 'f2').name],
    'uint16_32': [lambda np: np.array([0, 65535], np.uint16) + 1, lambda np: np.array([0, 1], np.uint16) - np.array([1, 2], np.uint16),
                  lambda np: np.array([65535], np.uint16) * np.array([65535], np.uint16), lambda np: ~np.array([0, 5], np.uint16),
                  lambda np: -np.array([1, 2], np.uint16), lambda np: np.array([70000]).astype(np.uint16), lambda np: np.array([-1]).astype(np.uint16),
                  lambda np: np.array([1, 2], np.uint16) + -1, lambda np: np.array([4294967295], np.uint32) + np.array([1], np.uint32),
                  lambda np: np.array([4294967295], np.uint32) * np.array([4294967295], np.uint32), lambda np: np.array([-1]).astype(np.uint32),
                  lambda np: np.array([5, 3], np.uint32) // np.array([2, 2], np.uint32), lambda np: np.array([1, 4294967295], np.uint32) > 3,
                  lambda np: np.array([1, 2], np.uint32).astype(np.int32), lambda np: np.max(np.array([1, 4294967295], np.uint32)),
                  lambda np: np.array([1, 2], 'u4').tobytes().hex(), lambda np: np.array([1, 2], np.uint16).itemsize, lambda np: _pickle16(np),
                  lambda np: repr(np.array([7, 65535], np.uint16)), lambda np: np.uint16(65535) + np.uint16(1), lambda np: np.sqrt(np.array([4], np.uint16)),
                  lambda np: np.array([1], np.uint64)],
    # --- native sort / unique / nonzero ---
    'sort_native': [lambda np: np.sort(np.array([3, 1, 2], np.int8)), lambda np: np.sort(np.array([200, 1, 7], np.uint8)),
                    lambda np: np.sort(np.array([True, False, True])), lambda np: np.sort(np.array([0.5, -1.5, 2.0], np.float16)),
                    lambda np: np.sort(f32(np, 3, 4)[:, ::-1], axis=1), lambda np: np.sort(f64(np, 3, 4)[::-1], axis=0),
                    lambda np: np.sort(np.array([np.nan, -np.inf, 1.0, np.inf, np.nan, -0.5])), lambda np: np.sort(np.array([3, 1, 2]), kind='stable'),
                    lambda np: np.sort(np.array([3, 1, 2]), kind='mergesort'), lambda np: np.sort(np.array([3, 1]), kind='bogus'),
                    lambda np: np.sort(np.zeros((2, 0))), lambda np: np.sort(np.array(5)), lambda np: np.sort(i64(np, 2, 3), axis=2),
                    lambda np: np.argsort(np.array([2, 1, 2, 1, 0])), lambda np: np.argsort(np.array([2, 1, 2, 1, 0]), kind='stable'),
                    lambda np: np.argsort(np.array([[3.0, np.nan, 1.0], [0.0, -1.0, 5.0]]), axis=1), lambda np: np.argsort(i64(np, 3, 2)[::-1], axis=0),
                    lambda np: np.argsort(np.array([[3, 1], [0, 2]]), axis=None), lambda np: np.argsort(np.array([True, False])),
                    lambda np: np.argsort(np.zeros((0, 3)), axis=1), lambda np: np.sort(np.arange(1000)[::-1])[::100], lambda np: i64(np, 2, 3)[:, ::-1].argsort(),
                    lambda np: _sort_method(np), lambda np: np.array([1, 3, 5]).searchsorted([2, 5], side='right'),
                    lambda np: (i64(np, 2, 3) + 4).cumprod(axis=0), lambda np: np.array([2, 1, 2]).argsort(kind='stable'),
                    lambda np: np.sort(np.array([3, 1, 2]), stable=True), lambda np: np.argsort(f32(np, 5)[::-2], stable=True)],
    'unique_native': [lambda np: np.unique(np.array([np.nan, 1.0, np.nan, 2.0, np.nan])),
                      lambda np: np.unique(np.array([np.nan, 1.0, np.nan, 2.0, np.nan]), return_index=True, return_inverse=True, return_counts=True),
                      lambda np: np.unique(np.array([1.0, np.nan])), lambda np: np.unique(np.array([[3, 1], [1, 2]]), return_inverse=True),
                      lambda np: np.unique(np.array([True, False, True]), return_counts=True), lambda np: np.unique(np.array([5, -3, 5], np.int8), return_index=True),
                      lambda np: np.unique(np.array([2.5, 1.5, 2.5], np.float32)), lambda np: np.unique(np.array([200, 7, 200], np.uint8)),
                      lambda np: np.unique(np.array([], np.int64), return_index=True, return_inverse=True, return_counts=True),
                      lambda np: np.unique(np.array(3)), lambda np: np.unique(i64(np, 3, 4)[::2, ::-1] % 3, return_counts=True),
                      lambda np: np.unique(np.array([0.5, 0.5], np.float16), return_inverse=True)],
    'nonzero_native': [lambda np: np.nonzero(i64(np, 2, 3, 2) % 3), lambda np: np.nonzero(np.array([False, True, True])),
                       lambda np: np.nonzero(np.zeros((2, 0))), lambda np: np.nonzero(np.array(1)), lambda np: np.argwhere(i64(np, 2, 3) > 0),
                       lambda np: np.argwhere(np.zeros((0, 2))), lambda np: np.flatnonzero(np.array([[0, 1.5], [0, -2.0]])),
                       lambda np: np.nonzero(f64(np, 4)[::-1]), lambda np: np.count_nonzero(i64(np, 3, 3), axis=0)],
    # --- searchsorted / bincount / histogram / digitize on native kernels ---
    'search_count': [lambda np: np.searchsorted(np.array([1, 3, 5, 7]), np.array([[0, 3], [6, 8]])), lambda np: np.searchsorted(np.array([1, 3, 3, 5]), 3, side='right'),
                     lambda np: np.searchsorted(np.array([1, 3, 3, 5]), 3), lambda np: np.searchsorted(np.array([1.0, 2.5]), np.array([2, 3], np.int32)),
                     lambda np: np.searchsorted(np.array([1.0, 3.0, np.nan]), np.array([np.nan, 2.0])), lambda np: np.searchsorted(np.array([1.0, np.nan]), np.nan, side='right'),
                     lambda np: np.searchsorted(np.array([3, 1, 2]), np.array([2, 4]), sorter=np.array([1, 2, 0])), lambda np: np.searchsorted(np.array([], np.int64), np.array([1, 2])),
                     lambda np: np.searchsorted(np.array([1, 2]), np.array([True, False])), lambda np: np.searchsorted(np.array([1, 2]), 1, side='middle'),
                     lambda np: np.searchsorted(np.array([[1, 2]]), 1), lambda np: np.searchsorted(np.array([1, 2], np.int8), np.array([1], np.int8)),
                     lambda np: np.bincount(np.array([0, 1, 1, 3, 9])), lambda np: np.bincount(np.array([2, 2], np.int8), minlength=5),
                     lambda np: np.bincount(np.array([0, 1, 1]), weights=np.array([0.5, 1.0, 2.0], np.float32)), lambda np: np.bincount(np.array([], np.int64)),
                     lambda np: np.bincount(np.array([], np.int64), minlength=3), lambda np: np.bincount(np.array([0, -1])), lambda np: np.bincount(np.array([0.5])),
                     lambda np: np.bincount(np.array([[0, 1]])), lambda np: np.bincount(np.array([True, True, False])), lambda np: np.bincount(np.array([1, 2]), weights=np.array([1, 2])),
                     lambda np: np.histogram(np.array([0.0, 0.1, 0.2, 0.3, 0.7, 1.0]), bins=10), lambda np: np.histogram(np.array([0.0, 0.1, 0.2, 0.3]), bins=3),
                     lambda np: np.histogram(np.arange(10), bins=4, range=(2, 6)), lambda np: np.histogram(f32(np, 12), bins=5),
                     lambda np: np.histogram(np.array([1.0, 2.0, np.nan]), bins=2, range=(0, 3)), lambda np: np.histogram(np.array([3.0, 3.0]), bins=2),
                     lambda np: np.histogram(np.array([1, 2, 2, 5]), bins=[0, 2, 5], density=True), lambda np: np.histogram(np.array([1, 2, 2, 5]), bins=2, weights=np.array([0.5, 1.0, 1.0, 2.0])),
                     lambda np: np.histogram(np.array([1, 2, 2, 5]), bins=2, weights=np.array([1, 2, 3, 4])), lambda np: np.histogram(np.array([]), bins=3),
                     lambda np: np.histogram(np.array([1.0, 2.0]), bins=0), lambda np: np.histogram(np.array([1.0, 2.0]), bins=[2, 1]),
                     lambda np: np.histogram(np.array([1.0, 2.0]), range=(3, 1)), lambda np: np.histogram(np.arange(100) / 7, bins=7),
                     lambda np: np.digitize(np.array([0.2, 6.4, 3.0, 1.6, 10.0]), np.array([0.0, 1.0, 2.5, 4.0, 10.0]), right=True),
                     lambda np: np.digitize(np.array([0.2, 6.4, 3.0, 10.0]), np.array([10.0, 4.0, 1.0])), lambda np: np.digitize(np.array([0.2, 6.4, 4.0, 10.0]), np.array([10.0, 4.0, 1.0]), right=True),
                     lambda np: np.digitize(2.5, np.array([1, 2, 3]))],
    # --- repeat / roll / cumprod / diag on native kernels ---
    'manip_native': [lambda np: np.repeat(np.arange(3), [2, 0, 3]), lambda np: np.repeat(i64(np, 2, 3), [1, 2], axis=0), lambda np: np.repeat(i64(np, 2, 3), 2, axis=-1),
                     lambda np: np.repeat(np.array([True, False]), 3), lambda np: np.repeat(np.array(5), 3), lambda np: np.repeat(np.arange(3), 0),
                     lambda np: np.repeat(np.zeros((0, 2)), 2, axis=0), lambda np: np.repeat(np.arange(3), [1, 2]), lambda np: np.repeat(np.arange(3), -1),
                     lambda np: np.repeat(f32(np, 2, 2)[:, ::-1], [2], axis=1), lambda np: np.repeat(np.array([1, 2], np.int16), 2),
                     lambda np: np.roll(i64(np, 3, 4), (1, -2), axis=(0, 1)), lambda np: np.roll(i64(np, 3, 4), 5), lambda np: np.roll(i64(np, 3, 4), -1, axis=0),
                     lambda np: np.roll(np.array([True, False, False]), 1), lambda np: np.roll(np.zeros((0,)), 2), lambda np: np.roll(i64(np, 2, 3), 2, axis=(0, 1)),
                     lambda np: np.roll(i64(np, 2, 3)[:, ::-1], 1, axis=1), lambda np: np.roll(np.arange(4), 1, axis=1),
                     lambda np: np.cumprod(i64(np, 2, 3) + 3, axis=1), lambda np: np.cumprod(np.array([True, False, True])), lambda np: np.cumprod(np.array([100, 100], np.int8)),
                     lambda np: np.cumprod(f32(np, 2, 2) + 1, axis=0), lambda np: np.cumprod(np.array([2.0, 3.0]), dtype=np.float32), lambda np: np.cumprod(np.zeros((0, 2)), axis=0),
                     lambda np: np.cumprod(np.array([300, 300], np.int16), dtype=np.int16), lambda np: np.cumprod(np.array(3.0)), lambda np: np.cumprod(i64(np, 3)[::-1]),
                     lambda np: np.diag(np.array([1.5, 2.5]), 1), lambda np: np.diag(np.array([True, True]), -2), lambda np: np.diag(np.array([], np.int64)),
                     lambda np: np.diag(np.array([], np.int64), 2), lambda np: np.diag(np.array([1, 2], np.uint8)), lambda np: np.diag(i64(np, 3, 4), 1)],
    # --- numpy.linalg on native kernels ---
    'linalg_native': [lambda np: np.linalg.inv(np.array([[[2.0, 1.0], [1.0, 3.0]], [[1.0, 2.0], [3.0, 5.0]]])), lambda np: np.linalg.inv(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)),
                      lambda np: np.linalg.inv(np.array([[2, 1], [1, 3]])), lambda np: np.linalg.inv(np.zeros((0, 0))), lambda np: np.linalg.inv(np.ones((2, 3))),
                      lambda np: np.linalg.inv(np.array([1.0, 2.0])), lambda np: np.linalg.inv(np.eye(2, dtype=np.float16)), lambda np: np.linalg.inv(np.array(SPD)),
                      lambda np: np.linalg.det(np.array(SPD)), lambda np: np.linalg.det(np.array([[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.0], [0.0, 2.0]]], np.float32)),
                      lambda np: np.linalg.det(np.array([[1, 2], [3, 4]])), lambda np: np.linalg.det(np.zeros((0, 0))), lambda np: np.linalg.det(np.zeros((3, 0, 0))),
                      lambda np: np.linalg.solve(np.array(SPD), np.array([1.0, 2.0, 3.0])), lambda np: np.linalg.solve(np.array(SPD), np.eye(3)),
                      lambda np: np.linalg.solve(np.array([[[2.0, 1.0], [1.0, 3.0]]] * 2), np.array([[[1.0], [2.0]], [[3.0], [4.0]]])),
                      lambda np: np.linalg.solve(np.eye(2), np.ones((3, 2, 1))), lambda np: np.linalg.solve(np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([1.0, 2.0])),
                      lambda np: np.linalg.solve(np.eye(2, dtype=np.float32), np.array([1.0, 2.0], np.float32)), lambda np: np.linalg.solve(np.eye(2), np.ones(3)),
                      lambda np: np.linalg.slogdet(np.array(SPD)), lambda np: np.linalg.slogdet(np.array([[0.0, 1.0], [1.0, 0.0]])),
                      lambda np: np.linalg.slogdet(np.zeros((2, 2))), lambda np: list(np.linalg.slogdet(np.array([[[2.0, 0.0], [0.0, 2.0]], [[-1.0, 0.0], [0.0, 3.0]]]))),
                      lambda np: np.linalg.cholesky(np.array(SPD)), lambda np: np.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]])),
                      lambda np: np.linalg.cholesky(np.array(SPD, np.float32)), lambda np: np.round(np.linalg.eigvalsh(np.array(SPD)), 10),
                      lambda np: np.round(np.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]])).eigenvalues, 10), lambda np: _eigh_rebuild(np),
                      lambda np: np.round(np.linalg.svd(np.array([[3.0, 0.0], [0.0, 4.0], [0.0, 0.0]]), compute_uv=False), 10), lambda np: _svd_rebuild(np),
                      lambda np: [x.shape for x in np.linalg.svd(np.ones((2, 3)))], lambda np: _qr_rebuild(np), lambda np: np.round(np.abs(np.linalg.qr(np.array(SPD), mode='r')), 10),
                      lambda np: np.round(np.linalg.pinv(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])), 10), lambda np: np.linalg.matrix_rank(np.ones((3, 3))),
                      lambda np: np.linalg.matrix_rank(np.array(SPD)), lambda np: np.linalg.matrix_rank(np.array([1.0, 0.0])),
                      lambda np: np.linalg.matrix_power(np.array([[1, 1], [1, 0]]), 10), lambda np: np.linalg.matrix_power(np.array([[2.0, 0.0], [0.0, 4.0]]), -2),
                      lambda np: np.linalg.matrix_power(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), 0), lambda np: np.linalg.matrix_power(np.ones((2, 3)), 2),
                      lambda np: np.round(np.linalg.norm(np.array([[1.0, 2.0], [3.0, 4.0]]), 2), 10), lambda np: np.round(np.linalg.norm(np.array([[1.0, 2.0], [3.0, 4.0]]), -2), 10),
                      lambda np: np.round(np.linalg.norm(np.array([[1.0, 2.0], [3.0, 4.0]]), 'nuc'), 10), lambda np: np.linalg.norm(np.array([[1.0, 2.0], [3.0, 4.0]]), 3),
                      lambda np: np.round(np.linalg.norm(f64(np, 2, 2, 3), 2, axis=(1, 2)), 10), lambda np: np.linalg.norm(f32(np, 3, 2), axis=0),
                      lambda np: isinstance(np.linalg.LinAlgError('x'), ValueError)],
    # --- the buffer protocol (a read-only copy in numpy's layout) ---
    'buffer': [lambda np: _mv(np, f64(np, 2, 3)), lambda np: _mv(np, np.array([1, -2], np.int16)), lambda np: _mv(np, np.array([True, False])),
               lambda np: _mv(np, f32(np, 3)[::-1]), lambda np: _mv(np, np.array(2.5)), lambda np: _mv(np, np.array([7, 8], np.uint8)),
               lambda np: bytes(np.arange(3, dtype=np.int32)).hex(), lambda np: _mv(np, np.zeros((0,)))],
}

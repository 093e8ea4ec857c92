"""Skiff's numpy beyond the differential table: paddle interop, .npy files from and for real
numpy, np.random reproducibility, np.testing, views and missing names."""
import io
import pickle
import os
import sys

import numpy as np
import paddle

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'numpy_fixtures')


# --- paddle interop ------------------------------------------------------------------------------
def test_to_tensor_keeps_numpy_dtype():
    a = np.arange(6, dtype=np.float64).reshape(2, 3) / 4
    t = paddle.to_tensor(a)
    assert t.dtype == paddle.float64 and t.shape == [2, 3]
    assert t.tolist() == a.tolist()
    assert paddle.to_tensor(np.array([1, 2], np.int32)).dtype == paddle.int32
    assert paddle.to_tensor(np.array([1.5]), dtype='float32').dtype == paddle.float32
    a[0, 0] = 100.0   # to_tensor copied: later writes to the array do not reach the tensor
    assert t.tolist()[0][0] == 0.0


def test_tensor_numpy_round_trip():
    t = paddle.to_tensor([[1.5, 2.0], [3.0, 4.0]])
    a = t.numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.shape == (2, 2)
    np.testing.assert_array_equal(a, [[1.5, 2.0], [3.0, 4.0]])
    a += 1
    assert t.tolist() == [[1.5, 2.0], [3.0, 4.0]]   # numpy() is a copy
    assert paddle.to_tensor([True]).numpy().dtype == np.bool_
    assert paddle.to_tensor(3).numpy().shape == ()
    assert np.asarray(paddle.to_tensor([1, 2])).dtype == np.int64


def test_ops_mix_tensors_and_arrays():
    x = paddle.to_tensor(np.linspace(0, 1, 4).astype(np.float32))
    y = paddle.nn.functional.relu(x - 0.5).numpy()
    np.testing.assert_allclose(y, np.maximum(np.linspace(0, 1, 4) - 0.5, 0).astype(np.float32), rtol=1e-6)


def test_tensor_op_ndarray_gives_a_tensor():
    t = paddle.to_tensor([1.0, 2.0])
    r = t + np.array([1.0, 1.0], np.float32)
    assert isinstance(r, paddle.Tensor) and r.tolist() == [2.0, 3.0]
    r = t * np.array([2.0, 2.0], np.float32)
    assert isinstance(r, paddle.Tensor) and r.tolist() == [2.0, 4.0]


# --- .npy --------------------------------------------------------------------------------------------
def _real(name):
    return os.path.join(FIX, name)


def test_load_files_written_by_real_numpy():
    a = np.load(_real('real_f32.npy'))
    assert a.dtype == np.float32 and a.shape == (3, 4)
    np.testing.assert_allclose(a, (np.arange(12, dtype=np.float32) - 4).reshape(3, 4) / 3, rtol=1e-7)
    np.testing.assert_array_equal(np.load(_real('real_i64.npy')), np.arange(-3, 3))
    b = np.load(_real('real_bool.npy'))
    assert b.dtype == np.bool_ and b.tolist() == [[True, False], [False, True]]
    h = np.load(_real('real_f16.npy'))
    assert h.dtype == np.float16 and h.tolist() == [0.5, -2.0, 65504.0]
    u = np.load(_real('real_u8_0d.npy'))
    assert u.dtype == np.uint8 and u.shape == () and u.item() == 200
    f = np.load(_real('real_f64_fortran.npy'))
    assert f.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    be = np.load(_real('real_f64_big_endian.npy'))
    assert be.dtype == np.float64 and be.tolist() == [0.0, 1.0, 2.0]
    e = np.load(_real('real_empty.npy'))
    assert e.shape == (0, 2) and e.dtype == np.int32


def _saved(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def test_save_is_byte_identical_to_real_numpy():
    # the same arrays real numpy saved: identical bytes mean real numpy reads Skiff's files
    same = {
        'real_f32.npy': (np.arange(12, dtype=np.float32) - 4).reshape(3, 4) / np.float32(3),
        'real_i64.npy': np.arange(-3, 3, dtype=np.int64),
        'real_bool.npy': np.array([[True, False], [False, True]]),
        'real_f16.npy': np.array([0.5, -2.0, 65504.0], dtype=np.float16),
        'real_u8_0d.npy': np.array(200, dtype=np.uint8),
        'real_empty.npy': np.zeros((0, 2), dtype=np.int32),
    }
    for name, a in same.items():
        with open(_real(name), 'rb') as f:
            want = f.read()
        assert _saved(a) == want, name


def test_save_load_round_trip_and_views(tmp_path=None):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::2].T   # a strided view
    buf = io.BytesIO(_saved(a))
    b = np.load(buf)
    assert b.shape == (2, 3) and b.tolist() == a.tolist()
    path = '/tmp/skiff_np_roundtrip'
    np.save(path, np.array([1, 2, 3], np.int8))
    assert np.load(path + '.npy').tolist() == [1, 2, 3]


def test_npz_archives():
    with np.load(_real('real.npz')) as z:
        assert sorted(z.files) == ['ids', 'w']
        assert z['w'].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and z['ids'].dtype == np.int32
    buf = io.BytesIO()
    np.savez(buf, np.arange(3), b=np.ones((2, 2), np.float32))
    z = np.load(io.BytesIO(buf.getvalue()))
    assert z['arr_0'].tolist() == [0, 1, 2] and z['b'].dtype == np.float32 and 'b' in z


def test_iteration_and_membership():
    a = np.array([1.5, 2.5])
    vals = list(a)
    assert vals == [1.5, 2.5] and type(vals[0]) is np.float64
    assert [r.tolist() for r in np.arange(4).reshape(2, 2)] == [[0, 1], [2, 3]]
    assert 2.5 in a and 3 not in a and 3 in np.arange(4).reshape(2, 2)


# --- random ------------------------------------------------------------------------------------------
def test_random_is_reproducible():
    np.random.seed(3)
    a = np.random.rand(2, 3)
    b = np.random.randn(4)
    np.random.seed(3)
    np.testing.assert_array_equal(np.random.rand(2, 3), a)
    np.testing.assert_array_equal(np.random.randn(4), b)
    assert a.shape == (2, 3) and a.dtype == np.float64 and bool(((a >= 0) & (a < 1)).all())
    r = np.random.randint(0, 5, size=100)
    assert r.dtype == np.int64 and int(r.min()) >= 0 and int(r.max()) <= 4
    assert isinstance(np.random.rand(), float)
    g1, g2 = np.random.default_rng(7), np.random.default_rng(7)
    np.testing.assert_array_equal(g1.normal(size=5), g2.normal(size=5))
    assert g1.integers(0, 10, size=3).shape == (3,)


def test_random_choice_permutation_shuffle():
    np.random.seed(0)
    p = np.random.permutation(10)
    assert sorted(p.tolist()) == list(range(10))
    c = np.random.choice(np.array([1.5, 2.5, 3.5]), size=(2, 2))
    assert c.shape == (2, 2) and set(c.reshape(-1).tolist()) <= {1.5, 2.5, 3.5}
    assert sorted(np.random.choice(5, 5, replace=False).tolist()) == list(range(5))
    x = np.arange(8).reshape(4, 2)
    np.random.shuffle(x)
    assert sorted(x[:, 0].tolist()) == [0, 2, 4, 6] and (x[:, 1] - x[:, 0]).tolist() == [1, 1, 1, 1]
    u = np.random.uniform(-1, 1, size=50)
    assert bool((u >= -1).all()) and bool((u < 1).all())


# --- testing helpers -------------------------------------------------------------------------------
def _raises(fn):
    try:
        fn()
    except AssertionError as e:
        return str(e)
    raise RuntimeError('no AssertionError')


def test_testing_asserts():
    np.testing.assert_allclose(np.array([1.0, 2.0]), [1.0, 2.0 + 1e-9])
    msg = _raises(lambda: np.testing.assert_allclose(np.array([1.0, 2.0]), [1.0, 2.1]))
    assert 'Mismatched elements: 1 / 2' in msg
    np.testing.assert_array_equal(np.arange(3), [0, 1, 2])
    _raises(lambda: np.testing.assert_array_equal(np.arange(3), [0, 1, 3]))
    _raises(lambda: np.testing.assert_array_equal(np.arange(3), np.arange(4)))
    np.testing.assert_equal({'a': [1, np.float64(2.0)]}, {'a': [1, 2.0]})
    _raises(lambda: np.testing.assert_equal(1, 2))
    np.testing.assert_allclose(np.array([np.nan]), np.array([np.nan]))
    np.testing.assert_array_almost_equal(np.array([1.0]), [1.0000001])


# --- views, missing names, documented limits ---------------------------------------------------------
def test_basic_slices_are_views_and_advanced_are_copies():
    a = np.zeros((3, 4))
    v = a[1]
    v[2] = 5.0
    assert a[1, 2] == 5.0 and v.base is a
    c = a[[1]]
    c[0, 0] = 9.0
    assert a[1, 0] == 0.0
    r = a.reshape(4, 3)
    r[0, 0] = 1.0
    assert a[0, 0] == 1.0
    t = a.T
    t[3, 2] = 7.0
    assert a[2, 3] == 7.0 and a.T.strides == (8, 32)


def test_missing_names_raise_attribute_error():
    for mod, name in ((np, 'fft'), (np, 'polyfit'), (np.linalg, 'eig'), (np.linalg, 'eigvals'), (np.random, 'beta'), (np.testing, 'assert_warns')):
        try:
            getattr(mod, name)
        except AttributeError as e:
            assert name in str(e)
        else:
            raise AssertionError('%s.%s exists' % (mod.__name__, name))


def test_unsupported_keywords_raise():
    for fn in (lambda: np.sum(np.arange(3), where=np.array([True, False, True])), lambda: np.add(1, 2, where=np.array([True]))):
        try:
            fn()
        except NotImplementedError as e:
            assert 'where' in str(e)
        else:
            raise AssertionError('where= was ignored')


def test_uint64_raises_clearly():
    assert np.dtype('uint64').itemsize == 8
    for fn in (lambda: np.zeros(3, np.uint64), lambda: np.array([1], dtype='u8'), lambda: np.uint64(1)):
        try:
            fn()
        except TypeError as e:
            assert "uint64 is not supported by Skiff's numpy" in str(e)
        else:
            raise AssertionError('no TypeError')


def test_wrapped_dtypes_keep_numpy_layout():
    # int16/uint16 live in int32 storage, uint32 in int64: numpy's itemsize, bytes and wrapping
    a = np.array([1, -32768, 32767], np.int16)
    assert a.itemsize == 2 and a.nbytes == 6 and a.strides == (2,)
    assert a.tobytes() == b'\x01\x00\x00\x80\xff\x7f'
    assert bytes(a) == a.tobytes()
    if sys.version_info >= (3, 12):   # memoryview of a Python class needs __buffer__ (PEP 688)
        assert bytes(memoryview(a)) == a.tobytes() and memoryview(a).format == 'h' and memoryview(a).tolist() == [1, -32768, 32767]
    assert (a * a).tolist() == [1, 0, 1] and (-a).tolist() == [-1, -32768, -32767]
    assert (a[::2] + np.int16(1)).tolist() == [2, -32768]
    buf = io.BytesIO()
    np.save(buf, a)
    assert len(buf.getvalue()) == 128 + 6
    buf.seek(0)
    b = np.load(buf)
    assert b.dtype == np.int16 and b.tolist() == a.tolist()
    u = np.array([0, 65535], np.uint16)
    assert (u + 1).tolist() == [1, 0] and (u - 1).tolist() == [65535, 65534] and (~u).tolist() == [65535, 0]
    w = np.array([4294967295], np.uint32)
    assert (w + w).tolist() == [4294967294] and w.astype(np.int32).tolist() == [-1]
    assert pickle.loads(pickle.dumps(a)).tolist() == a.tolist()
    t = paddle.to_tensor(a)   # Skiff's runtime has no int16: the tensor is int32 with the same values
    assert t.dtype == paddle.int32 and t.tolist() == a.tolist()


def test_large_arrays_stay_native():
    a = np.ones((256, 256), dtype=np.float32)
    b = a @ a
    assert b.dtype == np.float32 and float(b[0, 0]) == 256.0
    assert float(np.sum(b)) == 256.0 ** 3
    assert np.sum(np.arange(100000)) == 4999950000


# --- memory --------------------------------------------------------------------------------------------
def _settle():
    import gc
    from paddle import _bridge
    gc.collect()
    _bridge.flush_frees()
    _bridge.clear_caches()   # the bridge's cached scalar operands are not leaks


def test_arrays_free_their_native_memory():
    from paddle import _bridge
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    warm = (a + 1.5).sum(axis=0) @ np.ones(4, np.float32).reshape(4, 1)[:, 0][:4]   # warm caches
    del warm
    _settle()
    tensors, handles, proxies = _bridge.live_tensors(), _bridge.live_handles(), _bridge.proxy_balance()
    for _ in range(300):
        b = (a * 2 + 1.5) / np.float32(3)
        c = b[1:, ::2].T
        d = np.concatenate([c, c]).sum(axis=0, keepdims=True)
        e = np.exp(d) > 1
        f = b[b > 2]
        b[0] += 1
        s = repr(e) + str(f.mean())
        g = paddle.to_tensor(b).numpy()
    del b, c, d, e, f, g, s
    _settle()
    assert _bridge.live_handles() == handles, (_bridge.live_handles(), handles)
    assert _bridge.live_tensors() == tensors, (_bridge.live_tensors(), tensors)
    assert _bridge.proxy_balance() == proxies


def test_cast_temporaries_live_through_the_call():
    # a promotion cast makes a temporary tensor per call; dropped handles are freed in batches of
    # 64, so a temporary released before the bridge call used it would fail within 200 rounds
    u = np.array([1, 2], np.uint8)
    f = np.array([1.5, 2.5])
    for _ in range(200):
        assert (u + f).tolist() == [2.5, 4.5]
        assert np.exp(u).dtype == np.float16
        assert (2.5 * u).tolist() == [2.5, 5.0]


def test_tensors_inside_lists():
    a = np.array([paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])])
    assert a.dtype == np.float32 and a.tolist() == [[1.0, 2.0], [3.0, 4.0]]

"""Translator: NumPy values as a variable kind (issue 11, frontend/python/sot/numpy_values.ts).
Scalars are guarded by dtype and value (a new scalar object with the same value hits the cache),
arrays by dtype and shape with their data a graph input read on every run; to_tensor(arr) and
`tensor <op> arr` are captured, numpy computing breaks with SOT030, .numpy() with SOT003."""
import numpy as np

import paddle
from sot_check import assert_breaks, assert_no_breaks, breaks, check, count, same, t


def scaled(x, s):
    return x * s + s, x - s


def test_numpy_scalar_guarded_by_dtype_and_value_not_identity():
    x = t([1.0, -2.0])
    # (argument, translations after the call): a new object of the same value hits
    table = [
        (np.int64(2), 1),
        (np.int64(1) + np.int64(1), 1),
        (np.int64(3), 2),        # another value
        (np.int32(3), 3),        # another dtype, same value
        (np.float32(3.0), 4),
        (np.float64(0.0), 5),
        (np.float64(-0.0), 6),   # -0.0 is another constant to bake in (its zeros keep their sign)
        (np.float64(-0.0), 6),
    ]
    sf = paddle.jit.to_static(scaled)
    for s, n in table:
        got, want = sf(x, s), scaled(x, s)
        same(got, want)
        assert str(got[0].tolist()) == str(want[0].tolist()), (got[0].tolist(), want[0].tolist())
        assert count(sf) == n, 'after %r: %d translations, expected %d' % (s, count(sf), n)
    assert_no_breaks(sf)


def scalar_logic(x, s):
    if s > 1:
        x = x + 1
    if not s:
        x = x - 1
    r = s * 2 + 1          # numpy arithmetic on the scalar: still a numpy scalar
    return x * r, r, s == 2, bool(s), int(s) + 1


def test_numpy_scalar_comparisons_and_truth_are_python_values():
    x = t([1.0, 2.0])
    for s in (np.int64(2), np.int64(0), np.float32(1.5), np.bool_(True), np.int64(2)):
        sf = check(scalar_logic, (x, s), (x, type(s)(s.item())), translations=1)
        assert_no_breaks(sf)
        got = sf(x, s)
        assert type(got[1]) is type(scalar_logic(x, s)[1])   # numpy's result type kept


def with_array(x, a):
    y = x / a
    y -= a                 # Tensor has no __isub__: y = y - a
    return x + a, x * a, y, paddle.to_tensor(a), a.shape, a.ndim, a.size, a.dtype == 'float64', a.dtype.name


def test_numpy_array_guarded_by_dtype_and_shape_data_read_each_run():
    x = t([1.0, 2.0])
    a = np.array([3.0, 4.0])
    # (array, translations after the call)
    table = [
        (a, 1),
        (np.array([3.0, 4.0]), 1),            # a new array, same content
        (np.array([-1.0, 0.5]), 1),           # other content: not baked in, no new translation
        (np.array([1.0, 2.0], 'float32'), 2), # other dtype
        (np.array([1, 2]), 3),                # int64: to_tensor keeps it, Paddle promotes (/ casts)
        (np.array([1.0, 2.0, 3.0])[:2], 3),   # a view of the same dtype and shape
        (np.array([[1.0, 2.0]]), 4),          # other shape (broadcasts)
    ]
    sf = paddle.jit.to_static(with_array)
    for arr, n in table:
        same(sf(x, arr), with_array(x, arr))
        assert count(sf) == n, 'after %r: %d translations, expected %d' % (arr, count(sf), n)
    assert_no_breaks(sf)
    # the same array written in place between calls: the graph reads its new data
    a[0] = 10.0
    same(sf(x, a), with_array(x, a))
    assert count(sf) == 4


def to_tensor_of_array(x, a):
    y = paddle.to_tensor(a)
    z = paddle.to_tensor(a, dtype='float32')
    w = paddle.to_tensor(a, dtype=paddle.int64)
    y.add_(x)              # a copy: the array does not change
    return y, z, w, paddle.to_tensor(a)


def test_to_tensor_of_an_array_is_a_copy():
    x = t([1.0, 2.0], 'float64')
    a = np.array([1.5, 2.5])
    sf = check(to_tensor_of_array, (x, a), (x, np.array([3.5, 4.5])), translations=1)
    assert_no_breaks(sf)
    r = sf(x, a)
    assert a.tolist() == [1.5, 2.5]
    r[3].add_(x)           # the returned tensor owns its storage
    assert a.tolist() == [1.5, 2.5] and r[3].tolist() == [2.5, 4.5]


def numpy_function(x, a):
    return x + np.add(a, 1)          # numpy computes; its array is an entry value after the break


def array_method(x, a):
    return x * a.reshape(2)


def array_on_left(x, a):
    return x * (a + x)               # numpy answers `arr + t` (an ndarray)


def array_compare(x, a):
    return paddle.to_tensor(x == a)


def array_items(x, a):
    a[0] = 0.5                       # numpy writes its own array
    return x + a


def array_scalar(x, a):
    return x * a.sum()               # a numpy scalar: baked in, guarded by value


def test_numpy_computing_breaks_with_sot030():
    x = t([1.0, 2.0], 'float64')
    for fn in (numpy_function, array_method, array_on_left, array_compare, array_items, array_scalar):
        sf = check(fn, (x, np.array([1.0, 2.0])), (x, np.array([5.0, 6.0])))
        assert_breaks(sf, 'SOT030')
        # each break runs once per call; the arrays the steps make are guarded by dtype and shape,
        # so later calls with new arrays hit the tree (a scalar result only when its value repeats)
        n = count(sf)
        for v in ([3.0, 4.0], [7.0, 8.0]) if fn is not array_scalar else ([1.5, 1.5], [2.5, 0.5]):
            arr = np.array(v)
            same(sf(x, arr), fn(x, np.array(v)))
        assert count(sf) == n, '%s: %d translations after %d' % (fn.__name__, count(sf), n)


def through_numpy(x):
    a = x.numpy()
    return paddle.to_tensor(a) * 2 + x, x + a, a.shape


def test_tensor_numpy_breaks_and_the_array_is_a_value_after_it():
    x = t([1.0, 2.0])
    sf = check(through_numpy, (x,), (t([3.0, 4.0]),), (x,), translations=2)
    assert breaks(sf) == ['SOT003']


def identity(a, b):
    return a is b


def test_identity_of_numpy_values_is_not_assumed():
    a = np.array([1.0])
    s = np.int64(1)
    check(identity, (a, a), (a, np.array([1.0])), (s, s), (s, np.int64(1)))


def array_made_inside(x):
    a = np.array([1, 2, 3])       # numpy's own Python runs (partly simulated, partly concrete)
    s = np.sum(a)
    return x + a, x * s, a.shape


def test_arrays_made_inside_translated_code_equal_eager():
    check(array_made_inside, (t([1.0, 2.0, 3.0]),), (t([4.0, 5.0, 6.0]),))

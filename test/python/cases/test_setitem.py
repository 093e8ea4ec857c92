"""Tensor.__setitem__ (basic indices) and the inplace variants (x.add_(y), paddle.relu_, ...).

Results are compared with a plain-Python reference of numpy's assignment rules; views made
before a write see it; overlapping self-assignment reads the old values; errors name the shapes."""
import itertools

import paddle


def _shape_of(v):
    s = []
    while isinstance(v, list):
        s.append(len(v))
        v = v[0] if v else None
    return s


def _flat(v):
    if not isinstance(v, list):
        return [v]
    return [e for x in v for e in _flat(x)]


def _nest(flat, shape):
    if not shape:
        return flat[0]
    for d in reversed(shape[1:]):
        flat = [flat[i:i + d] for i in range(0, len(flat), d)]
    return flat


def ref_setitem(data, index, value):
    """numpy's data[index] = value on nested lists (value: nested lists or a scalar)."""
    shape = _shape_of(data)
    flat = _flat(data)
    items = list(index) if isinstance(index, tuple) else [index]
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    if Ellipsis in items:
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * (len(shape) - n_real)
    items += [slice(None)] * (len(shape) - sum(1 for i in items if i is not None))
    picks, kinds = [], []
    d = 0
    for it in items:
        if it is None:
            kinds.append('none')
            continue
        if d >= len(shape):
            break
        n = shape[d]
        if isinstance(it, slice):
            picks.append(list(range(*it.indices(n))))
            kinds.append(d)
        else:
            picks.append([it + n if it < 0 else it])
            kinds.append('dec')
        d += 1
    vshape = _shape_of(value)
    vflat = _flat(value)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    vstr = [1] * len(vshape)
    for i in range(len(vshape) - 2, -1, -1):
        vstr[i] = vstr[i + 1] * vshape[i + 1]
    for combo in itertools.product(*[range(len(p)) for p in picks]):
        assign = []
        k = 0
        for kind in kinds:
            if kind == 'none':
                assign.append(0)
            else:
                if kind != 'dec':
                    assign.append(combo[k])
                k += 1
        off = sum(picks[j][c] * strides[j] for j, c in enumerate(combo))
        lead = len(assign) - len(vshape)
        voff = sum((0 if vshape[i] == 1 else assign[lead + i]) * vstr[i] for i in range(len(vshape)))
        flat[off] = vflat[voff]
    return _nest(flat, shape)


def grid(shape, start=0):
    n = 1
    for d in shape:
        n *= d
    return _nest([float(start + i) for i in range(n)], shape) if shape else float(start)


CASES = [
    ([3, 4], 1, [10.0, 11.0, 12.0, 13.0]),
    ([3, 4], 1, 5.0),
    ([4, 5], (slice(1, 3), slice(None, None, 2)), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    ([2, 3, 4], (Ellipsis, 0), 5.0),
    ([3, 4], (None, 1), [[7.0, 8.0, 9.0, 10.0]]),
    ([3, 4], (slice(None), None, slice(1, 3)), [[[1.0, 2.0]], [[3.0, 4.0]], [[5.0, 6.0]]]),
    ([5], slice(None, None, -1), [9.0, 8.0, 7.0, 6.0, 5.0]),
    ([5, 3], (slice(3, 0, -2), -1), [100.0, 200.0]),
    ([5], slice(-10, None, -1), [1.0]),
    ([4, 3], slice(-2, None), [[1.0], [2.0]]),
    ([4], slice(5, 9), [1.0]),
    ([2, 3], Ellipsis, [1.0, 2.0, 3.0]),
]


def test_setitem_matches_numpy_rules():
    for shape, index, value in CASES:
        x = paddle.to_tensor(grid(shape))
        want = ref_setitem(grid(shape), index, value)
        x[index] = value if not isinstance(value, list) else paddle.to_tensor(value)
        assert x.tolist() == want, (shape, index, x.tolist(), want)


def test_values_scalars_lists_and_other_dtypes():
    x = paddle.zeros([2, 3], dtype='int32')
    x[0] = 7
    x[1, 1:] = [5, 6]
    assert x.tolist() == [[7, 7, 7], [0, 5, 6]]
    x[:, 0] = paddle.to_tensor([1.9, -2.7])   # a float tensor into an int tensor: cast, as Paddle
    assert x.dtype == paddle.int32
    assert x.tolist() == [[1, 7, 7], [-2, 5, 6]]
    b = paddle.to_tensor([True, False, True])
    b[1:] = True
    assert b.tolist() == [True, True, True]
    z = paddle.to_tensor(3.0)
    z[...] = 4.5
    assert z.item() == 4.5 and z.shape == []


def test_views_made_before_see_the_write():
    x = paddle.to_tensor(grid([3, 4]))
    row = x[1]
    col = x[:, 2]
    x[1, 2] = -1.0
    assert row.tolist() == [4.0, 5.0, -1.0, 7.0]
    assert col.tolist() == [2.0, -1.0, 10.0]
    row[0] = 100.0          # a write through a view reaches the base
    assert x[1, 0].item() == 100.0
    assert x.shape == [3, 4] and row.shape == [4]


def test_overlapping_self_assignment():
    x = paddle.to_tensor([0.0, 1.0, 2.0, 3.0, 4.0])
    x[1:] = x[:-1]
    assert x.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0]
    y = paddle.to_tensor([0.0, 1.0, 2.0, 3.0, 4.0])
    y[::-1] = y
    assert y.tolist() == [4.0, 3.0, 2.0, 1.0, 0.0]
    a = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    a[1:].add_(a[:-1])
    assert a.tolist() == [1.0, 3.0, 5.0, 7.0, 9.0]


def test_errors():
    x = paddle.zeros([4, 5])
    try:
        x[0:2] = paddle.ones([3])
    except ValueError as e:
        assert '[3]' in str(e) and '[2, 5]' in str(e) and '[4, 5]' in str(e), str(e)
    else:
        raise AssertionError('shape mismatch should raise ValueError')
    for bad in (4, (0, -6)):
        try:
            x[bad] = 1.0
        except IndexError as e:
            assert 'out of bounds' in str(e)
        else:
            raise AssertionError('out-of-range index should raise IndexError')
    # tensor indices are advanced indexing now (test_indexing.py); a mask of the wrong length is an IndexError
    try:
        x[paddle.to_tensor([True, False, True])] = 1.0
    except IndexError as e:
        assert 'boolean index' in str(e), str(e)
    else:
        raise AssertionError('a mask of the wrong shape should raise IndexError')
    try:
        x[::0] = 1.0
    except ValueError:
        pass
    else:
        raise AssertionError('step 0 should raise ValueError')
    assert x.tolist() == paddle.zeros([4, 5]).tolist()


def test_inplace_methods_return_self():
    x = paddle.to_tensor([[-1.0, 2.0], [3.0, -4.0]])
    shape, dtype = x.shape, x.dtype
    assert x.add_(paddle.to_tensor([1.0, 1.0])) is x
    assert x.tolist() == [[0.0, 3.0], [4.0, -3.0]]
    assert paddle.nn.functional.relu_(x) is x
    assert x.tolist() == [[0.0, 3.0], [4.0, 0.0]]
    assert x.scale_(2.0, 1.0) is x and x.tolist() == [[1.0, 7.0], [9.0, 1.0]]
    assert paddle.clip_(x, 2.0, 8.0) is x and x.tolist() == [[2.0, 7.0], [8.0, 2.0]]
    x.multiply_(2)
    x.subtract_(x[0])
    assert x.tolist() == [[0.0, 0.0], [12.0, -10.0]]
    assert x.shape == shape and x.dtype == dtype
    assert x.zero_() is x and x.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert x.fill_(3) is x and x.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    v = x[0]
    x.exp_()
    assert abs(v[0].item() - 20.0855369) < 1e-4


def test_inplace_errors():
    x = paddle.to_tensor([1.0, 2.0])
    try:
        x.add_(paddle.ones([2, 2]))
    except ValueError as e:
        assert 'add_' in str(e) and '[2, 2]' in str(e)
    else:
        raise AssertionError('add_ cannot broadcast x up')
    n = paddle.to_tensor([1, 2])
    try:
        n.add_(1.5)
    except TypeError as e:
        assert 'add_' in str(e)
    else:
        raise AssertionError('add_ cannot change the dtype of x')
    assert x.tolist() == [1.0, 2.0] and n.tolist() == [1, 2]


def test_static_inplace_rebinds_the_variable():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            v = paddle.static.data('x', [2], 'float32')
            w = v
            v.add_(v)
            assert w is v
            out = paddle.scale(v, 1.0)
        exe = paddle.static.Executor()
        [r] = exe.run(main, feed={'x': paddle.to_tensor([1.0, 2.0])}, fetch_list=[out])
    finally:
        paddle.disable_static()
    assert r.tolist() == [2.0, 4.0]

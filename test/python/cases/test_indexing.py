"""Basic indexing: ints, slices, None, Ellipsis (built from slice / strided_slice / squeeze /
unsqueeze); advanced indexing (int/bool tensors and lists, mixed with basic items), table-driven
against a plain-Python reference, forward and backward; basic assignment is in test_setitem.py."""
import paddle


def x23():
    return paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def test_int_index_drops_a_dim():
    x = x23()
    assert x[0].tolist() == [1.0, 2.0, 3.0]
    assert x[-1].shape == [3]
    assert x[1, 2].shape == [] and x[1, 2].item() == 6.0
    assert x[0][1].item() == 2.0


def test_slices():
    x = x23()
    assert x[:, 1:].tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert x[:1].shape == [1, 3]
    assert x[:, ::2].tolist() == [[1.0, 3.0], [4.0, 6.0]]
    assert x[:, -2:].tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert x[:, 5:].shape == [2, 0]


def test_negative_steps():
    x = x23()
    assert x[0, ::-1].tolist() == [3.0, 2.0, 1.0]
    assert x[::-1].tolist() == [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]
    assert x[1, 2:0:-1].tolist() == [6.0, 5.0]
    assert x[:, ::-2].tolist() == [[3.0, 1.0], [6.0, 4.0]]


def test_none_and_ellipsis():
    x = x23()
    assert x[None].shape == [1, 2, 3]
    assert x[:, None].shape == [2, 1, 3]
    assert x[..., None].shape == [2, 3, 1]
    assert x[..., 1].tolist() == [2.0, 5.0]
    assert x[None, ..., None].shape == [1, 2, 3, 1]
    assert x[...].tolist() == x.tolist()


def test_index_errors():
    x = x23()
    for idx in (2, (0, 3), (0, 0, 0), (-3,)):
        try:
            x[idx]
        except IndexError:
            pass
        else:
            raise AssertionError('x[%r] should raise IndexError' % (idx,))
    try:
        x['a']
    except TypeError:
        pass
    else:
        raise AssertionError("x['a'] should raise TypeError")


def test_tensor_indices():
    x = x23()
    assert x[paddle.to_tensor(1)].tolist() == [4.0, 5.0, 6.0]
    assert x[paddle.to_tensor(1)].shape == [3]
    assert x[paddle.to_tensor([1, 0])].tolist() == [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]
    assert x[[1, 1]].shape == [2, 3]


def test_iteration_uses_indexing():
    assert [r.tolist() for r in paddle.to_tensor([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]
    assert [v.item() for v in paddle.to_tensor([5, 6])] == [5, 6]


def test_setitem_works_now():
    # Assignment is covered by test_setitem.py; this keeps the old documented behaviour's slot.
    x = x23()
    x[0] = 1.0
    assert x.tolist() == [[1.0, 1.0, 1.0], [4.0, 5.0, 6.0]]


# ---- advanced indexing --------------------------------------------------------------------------
# A plain-Python reference of Paddle 2.6's rules on nested lists: ints/slices/None applied first,
# bool masks -> their true coordinates, int indices broadcast together, B placed where the first
# advanced item was when the advanced items are adjacent, else in front.

def _shape(a):
    s = []
    while isinstance(a, list):
        s.append(len(a))
        a = a[0] if a else None
    return s


def _flat(a):
    if not isinstance(a, list):
        return [a]
    return [v for x in a for v in _flat(x)]


def _unravel(i, shape):
    idx = []
    for n in reversed(shape):
        idx.append(i % n)
        i //= n
    return idx[::-1]


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _at(data, shape, idx):
    off = 0
    for v, n in zip(idx, shape):
        off = off * n + v
    return data[off]


def _bcast(shapes):
    out = []
    for s in shapes:
        n = max(len(out), len(s))
        a, b = [1] * (n - len(out)) + out, [1] * (n - len(s)) + list(s)
        out = [y if x == 1 else x for x, y in zip(a, b)]
    return out


def _bat(arr_shape, arr, idx):
    """arr (flat, of arr_shape) at the broadcast multi-index idx."""
    off = len(idx) - len(arr_shape)
    return _at(arr, arr_shape, [0 if n == 1 else idx[off + k] for k, n in enumerate(arr_shape)])


def _ref_plan(xshape, index):
    items = list(index) if isinstance(index, tuple) else [index]
    real = sum(0 if (it is None or it is Ellipsis) else (len(_shape(it)) if isinstance(it, list) and isinstance(_flat(it)[0] if _flat(it) else 0, bool) else 1) for it in items)
    ex = []
    for it in items:
        if it is Ellipsis:
            ex += [slice(None)] * (len(xshape) - real)
        elif isinstance(it, list) and _flat(it) and isinstance(_flat(it)[0], bool):
            sh = _shape(it)
            coords = [_unravel(i, sh) for i, v in enumerate(_flat(it)) if v]
            ex += [('adv', [len(coords)], [c[j] for c in coords]) for j in range(len(sh))]
        elif isinstance(it, list):
            ex.append(('adv', _shape(it), _flat(it)))
        else:
            ex.append(it)
    while sum(1 for it in ex if it is not None) < len(xshape):
        ex.append(slice(None))
    parts, src, d = [], [], 0     # parts: output dims; src: per x dim how to read it
    kept = [it for it in ex if not isinstance(it, int)]
    advpos = [k for k, it in enumerate(kept) if isinstance(it, tuple)]
    adjacent = advpos and advpos[-1] - advpos[0] == len(advpos) - 1
    b = _bcast([it[1] for it in ex if isinstance(it, tuple)])
    if advpos and not adjacent:
        parts.append('B')
    for it in ex:
        if it is None:
            parts.append(('new',))
            continue
        n = xshape[d]
        if isinstance(it, int):
            src.append(('int', it % n))
        elif isinstance(it, slice):
            src.append(('part', len(parts)))
            parts.append(('basic', list(range(*it.indices(n)))))
        else:
            src.append(('adv', it[1], [v % n for v in it[2]]))
            if 'B' not in parts:
                parts.append('B')
        d += 1
    shape, start = [], []
    for p in parts:
        start.append(len(shape))
        shape += b if p == 'B' else [1] if p[0] == 'new' else [len(p[1])]
    bstart = start[parts.index('B')] if 'B' in parts else 0

    def source(idx):
        bidx = idx[bstart:bstart + len(b)]
        return [s[1] if s[0] == 'int' else parts[s[1]][1][idx[start[s[1]]]] if s[0] == 'part' else _bat(s[1], s[2], bidx) for s in src]
    return shape, source


def _ref_get(x, index):
    xs, xd = _shape(x), _flat(x)
    shape, source = _ref_plan(xs, index)
    return shape, [_at(xd, xs, source(_unravel(i, shape))) for i in range(_size(shape))]


def _x(shape):
    return paddle.arange(_size(shape), dtype='float64').reshape(shape) * 0.5 - 3.0


ADV_CASES = [
    ((4, 3), [2, 0, -1]),
    ((4, 3), (slice(None), [1, 1])),
    ((4, 3), ([0, 3], [2, 0])),
    ((4, 3), ([[0], [3]], [2, 0, 1])),
    ((4, 3), [[1, 2], [0, 3]]),
    ((2, 3, 4), (slice(None), [2, 0], [1, 3])),
    ((2, 3, 4), ([1, 0], slice(None), [3, 0])),
    ((2, 3, 4), (slice(None), [2, 0], 1)),
    ((2, 3, 4), (1, slice(None), [3, 0, 1])),
    ((2, 3, 4), (Ellipsis, [0, -1])),
    ((2, 3, 4), ([1], None, slice(1, None), [0, 2])),
    ((2, 3, 4), (slice(None), [2, 0], None, [1, 3])),
    ((2, 3, 4), (slice(None, None, -1), [2, 0])),
    ((2, 3), [[True, False, True], [False, True, True]]),
    ((2, 3), [False, True]),
    ((2, 3), (slice(None), [True, False, True])),
    ((2, 3, 2), (1, [[False, True], [True, False], [False, True]])),
    ((2, 3), [False, False]),
    ((2, 3), []),
]


def test_advanced_getitem_table():
    for shape, index in ADV_CASES:
        x = _x(list(shape))
        want_shape, want = _ref_get(x.tolist(), index)
        for as_tensor in (False, True):
            idx = index
            if as_tensor:   # lists as tensors (ints int64, bools bool)
                conv = lambda it: paddle.to_tensor(it, dtype='bool' if _flat(it) and isinstance(_flat(it)[0], bool) else 'int64') if isinstance(it, list) else it  # noqa: E731
                idx = tuple(conv(i) for i in index) if isinstance(index, tuple) else conv(index)
            y = x[idx]
            assert y.shape == want_shape, (shape, index, y.shape, want_shape)
            assert _flat(y.tolist()) == want, (shape, index)


def test_advanced_getitem_gradients():
    for shape, index in ADV_CASES + [((4, 3), [1, 1, 1])]:
        x = _x(list(shape))
        x.stop_gradient = False
        y = x[index]
        w = paddle.arange(_size(y.shape), dtype='float64').reshape(y.shape) + 1.0
        (y * w).sum().backward()
        xs = list(shape)
        plan_shape, source = _ref_plan(xs, index)
        g = [0.0] * _size(xs)
        wf = _flat(w.tolist())
        for i in range(_size(plan_shape)):
            src = source(_unravel(i, plan_shape))
            off = 0
            for v, n in zip(src, xs):
                off = off * n + v
            g[off] += wf[i]
        assert _flat(x.grad.tolist()) == g, (shape, index)


def test_advanced_getitem_is_a_copy_and_errors():
    x = x23()
    y = x[[0]]
    y[0, 0] = 100.0
    assert x[0, 0].item() == 1.0
    for bad, what in (((slice(None), [0, 3]), 'index 3 is out of bounds for axis 1 with size 3'),
                      ([-3], 'index -3 is out of bounds for axis 0 with size 2'),
                      ([True, False, True], 'boolean index'),
                      (([0, 1], [0, 1, 2]), 'could not be broadcast')):
        try:
            x[bad]
        except IndexError as e:
            assert what in str(e), (bad, str(e))
        else:
            raise AssertionError('x[%r] should raise IndexError' % (bad,))
    try:
        x[paddle.to_tensor([0.5])]
    except IndexError as e:
        assert 'float32' in str(e)
    else:
        raise AssertionError('a float tensor index should raise IndexError')


SET_CASES = [
    ((4, 3), [2, 0], [3]),
    ((4, 3), [2, 0], []),
    ((4, 3), (slice(None), [2, -3]), [4, 2]),
    ((4, 3), ([0, 3], [2, 0]), [2]),
    ((2, 3, 4), (slice(None), [2, 0], [1, 3]), [2, 2]),
    ((2, 3, 4), ([1, 0], slice(None), [3, 0]), [2, 3]),
    ((2, 3, 4), (1, slice(None, None, -1), [3, 0, 1]), [3, 3]),
    ((2, 3), [[True, False, True], [False, True, True]], [4]),
    ((2, 3), (slice(None), [True, False, True]), [2, 1]),
]


def test_advanced_setitem_table_and_gradients():
    for shape, index, vshape in SET_CASES:
        xs = list(shape)
        x0 = _x(xs)
        v0 = paddle.arange(_size(vshape), dtype='float64').reshape(vshape) + 100.0
        plan_shape, source = _ref_plan(xs, index)
        want = _flat(x0.tolist())
        vf = _flat(v0.tolist())
        offs = []
        for i in range(_size(plan_shape)):
            idx = _unravel(i, plan_shape)
            off = 0
            for v, n in zip(source(idx), xs):
                off = off * n + v
            want[off] = _bat(vshape, vf, idx) if vshape else vf[0]
            offs.append((off, idx))
        x = x0.clone()
        x[index] = v0
        assert _flat(x.tolist()) == want, (shape, index)
        out = paddle.static.setitem(x0, index, v0)
        assert _flat(out.tolist()) == want and _flat(x0.tolist()) != want
        # gradients to x (zero where written) and to the value (summed over its broadcast)
        a = x0.clone()
        a.stop_gradient = False
        v = v0.clone()
        v.stop_gradient = False
        z = a * 1.0
        z[index] = v
        w = paddle.arange(_size(xs), dtype='float64').reshape(xs) + 1.0
        (z * w).sum().backward()
        wf = _flat(w.tolist())
        gx = list(wf)
        gv = [0.0] * max(_size(vshape), 1)
        for off, idx in offs:
            gx[off] = 0.0
            k = 0
            lead = len(idx) - len(vshape)
            for j, n in enumerate(vshape):
                k = k * n + (0 if n == 1 else idx[lead + j])
            gv[k] += wf[off]
        assert _flat(a.grad.tolist()) == gx, (shape, index)
        assert _flat(v.grad.tolist()) == gv, (shape, index)


def test_advanced_setitem_values_and_views():
    x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
    row = x[1]
    x[x > 4] = 0
    assert x.tolist() == [[1, 2, 3], [4, 0, 0]] and row.tolist() == [4, 0, 0]
    x[[0, 1], [2, 0]] = paddle.to_tensor([7.9, 8.1])   # cast to x's dtype, as Paddle does
    assert x.tolist() == [[1, 2, 7], [8, 0, 0]]
    x[:, [1]] = [[9], [10]]
    assert x.tolist() == [[1, 9, 7], [8, 10, 0]]
    try:
        x[[5]] = 1
    except IndexError as e:
        assert 'index 5 is out of bounds for axis 0 with size 2' in str(e), str(e)
    else:
        raise AssertionError('x[[5]] = 1 should raise IndexError')


def test_nonzero_and_masked_ops():
    m = paddle.to_tensor([[True, False], [True, True]])
    assert paddle.nonzero(m).tolist() == [[0, 0], [1, 0], [1, 1]]
    assert paddle.nonzero(m).dtype == paddle.int64
    parts = paddle.nonzero(m, as_tuple=True)
    assert isinstance(parts, tuple) and [p.shape for p in parts] == [[3, 1], [3, 1]]
    assert paddle.nonzero(paddle.to_tensor([0, 2, 0, 5]), as_tuple=True)[0].shape == [2, 1]
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert paddle.masked_select(x, m).tolist() == [1.0, 3.0, 4.0]
    assert paddle.masked_scatter(x, m, paddle.to_tensor([7.0, 8.0, 9.0])).tolist() == [[7.0, 2.0], [8.0, 9.0]]
    assert paddle.gather_nd(x, paddle.to_tensor([[1, 0], [0, -1]])).tolist() == [3.0, 2.0]
    assert paddle.index_put(x, (paddle.to_tensor([0, 0]),), paddle.to_tensor(1.0), True).tolist() == [[3.0, 4.0], [3.0, 4.0]]
    assert x.masked_select(m).shape == [3]


def test_static_setitem_and_advanced_index_in_a_program():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [3, 4], 'float32')
            y = paddle.static.setitem(x, (slice(None), [0, 2]), 5.0)
            z = paddle.static.setitem(x, (0, slice(1, 3)), 7.0)
            w = x[[2, 0]]
        out = paddle.static.Executor().run(main, feed={'x': paddle.ones([3, 4])}, fetch_list=[y, z, w])
    finally:
        paddle.disable_static()
    assert out[0].tolist() == [[5.0, 1.0, 5.0, 1.0]] * 3
    assert out[1].tolist() == [[1.0, 7.0, 7.0, 1.0], [1.0] * 4, [1.0] * 4]
    assert out[2].tolist() == [[1.0] * 4] * 2

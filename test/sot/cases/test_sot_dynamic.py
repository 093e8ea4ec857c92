"""Translator: dynamic shapes. Entry tensor dims become symbolic through InputSpec (None/-1),
paddle.jit.marker.dynamic_dims, or automatically at the second distinct size of a dim; one
translation then serves every size, and results equal eager's at each."""
import paddle
from paddle.jit import InputSpec
from sot_check import count, explain, same

paddle.seed(7)
W1 = paddle.randn([8, 16])
B1 = paddle.randn([16])
W2 = paddle.randn([16, 4])
WQ = paddle.randn([8, 8])
WK = paddle.randn([8, 8])
WV = paddle.randn([8, 8])


def mlp(x):
    h = paddle.nn.functional.relu(x @ W1 + B1)
    return paddle.nn.functional.softmax(h @ W2, axis=-1)


def attention(x):
    q, k, v = x @ WQ, x @ WK, x @ WV
    s = paddle.matmul(q, k, transpose_y=True) / 8 ** 0.5
    a = paddle.nn.functional.softmax(s, axis=-1) @ v
    # normalized by hand (layer_norm itself: test_symbolic_shape_read_stays_symbolic)
    h = a + x
    c = h - h.mean(axis=-1, keepdim=True)
    return (c / ((c * c).mean(axis=-1, keepdim=True) + 1e-5).sqrt()).sum(axis=1)


def _run(sf, fn, shapes):
    for shape in shapes:
        x = paddle.randn(shape)
        same(sf(x), fn(x))


def test_batch_sizes_auto():
    sf = paddle.jit.to_static(mlp)
    _run(sf, mlp, [[b, 8] for b in range(1, 65)])
    assert count(sf) <= 2, count(sf)
    assert not explain(sf).get('eager')


def test_sequence_lengths_auto():
    sf = paddle.jit.to_static(attention)
    _run(sf, attention, [[2, s, 8] for s in range(1, 513)])
    assert count(sf) <= 2, count(sf)
    assert not explain(sf).get('eager')


def test_batch_and_sequence_auto():
    sf = paddle.jit.to_static(attention)
    _run(sf, attention, [[b, s, 8] for b, s in [(1, 1), (2, 5), (3, 7), (4, 9), (6, 2), (5, 3), (2, 2)]])
    assert count(sf) <= 2, count(sf)   # both dims become symbolic at the second call


def test_symbolic_shape_read_stays_symbolic():
    # layer_norm checks x.shape[-1:] in Python: the symbolic dim is read as a symbolic int
    # (test_sot_symint.py) and the static one compares, so one graph serves every size
    def f(x):
        return paddle.nn.functional.layer_norm(x * 2, [8]).sum(axis=1)
    sf = paddle.jit.to_static(f)
    _run(sf, f, [[2, s, 8] for s in (1, 2, 3, 4, 9)])
    assert count(sf) <= 2, count(sf)
    assert not explain(sf)['breaks'], explain(sf)['breaks']


def test_symbolic_shape_value_breaks_cleanly():
    # a Python value that depends on the size (here a float scale) breaks (SOT008); the rest
    # runs per size, with eager's results
    def f(x):
        return (x * 2).sum(axis=1) / float(x.shape[1])
    sf = paddle.jit.to_static(f)
    _run(sf, f, [[2, s, 8] for s in (1, 2, 3, 4, 9)])
    assert 'SOT008' in [b['code'] for b in explain(sf)['breaks']]


def test_input_spec_one_translation():
    sf = paddle.jit.to_static(mlp, input_spec=[InputSpec([None, 8], 'float32')])
    _run(sf, mlp, [[b, 8] for b in range(1, 65)])
    assert count(sf) == 1, count(sf)
    assert any('S0' in g for gs in explain(sf)['guards'] for g in gs), explain(sf)['guards']


def test_input_spec_minus_one_and_nested():
    def f(xs, y):
        return xs[0] * 2 + xs[1].sum(), y.mean(axis=1)
    sf = paddle.jit.to_static(f, input_spec=[[InputSpec([-1, 3]), InputSpec([4])], InputSpec([2, None])])
    for n in (1, 5, 9):
        args = ([paddle.randn([n, 3]), paddle.randn([4])], paddle.randn([2, n + 1]))
        same(sf(*args), f(*args))
    assert count(sf) == 1, count(sf)


def test_input_spec_on_layer():
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(8, 3)

        def forward(self, x):
            return paddle.nn.functional.gelu(self.fc(x))
    net = Net()
    snet = paddle.jit.to_static(Net(), input_spec=[InputSpec([None, 8])])
    snet.set_state_dict(net.state_dict())
    for b in (1, 2, 7, 30):
        x = paddle.randn([b, 8])
        same(snet(x), net(x))
    assert count(snet.forward) == 1, count(snet.forward)


def test_marker_dynamic_dims():
    sf = paddle.jit.to_static(mlp)
    x = paddle.randn([3, 8])
    paddle.jit.marker.dynamic_dims(x, [0])
    same(sf(x), mlp(x))
    _run(sf, mlp, [[b, 8] for b in (1, 4, 17, 64)])
    assert count(sf) == 1, count(sf)


def test_marker_errors():
    for bad, exc in (((paddle.randn([2, 3]), [2]), ValueError), ((paddle.randn([2, 3]), ['a']), TypeError), (([1, 2], [0]), TypeError)):
        try:
            paddle.jit.marker.dynamic_dims(*bad)
        except exc as e:
            assert 'dynamic_dims' in str(e), e
        else:
            raise AssertionError('no error for %r' % (bad,))


def test_shape_dependent_branch():
    def f(x):
        y = x * 2 + 1
        if x.shape[0] > 4:
            return y.sum(axis=0)
        return y.mean(axis=0) - len(x)
    sf = paddle.jit.to_static(f)
    _run(sf, f, [[b, 3] for b in (1, 2, 3, 5, 8, 4, 6, 2, 12)])


def test_dynamic_dims_across_a_break():
    # the child after the break gets the parent's symbolic shapes (or guards concretely)
    def f(x, y):
        h = x @ W1
        print('', end='')
        z = h.reshape([-1, 4, 4]) + y.unsqueeze(1)
        return z.sum(axis=[1, 2]), h.shape[0] * 2
    sf = paddle.jit.to_static(f)
    for b in (1, 2, 3, 6, 11, 2):
        args = (paddle.randn([b, 8]), paddle.randn([b, 4]))
        same(sf(*args), f(*args))


def test_broadcast_between_dynamic_inputs():
    def f(x, y):
        return (x + y) * (x - y)
    sf = paddle.jit.to_static(f)
    for a, b in ((2, 2), (3, 3), (1, 4), (4, 1), (5, 5), (1, 1)):
        args = (paddle.randn([a, 3]), paddle.randn([b, 3]))
        same(sf(*args), f(*args))


def test_sizes_zero_and_one_stay_concrete():
    # automatic symbols bind sizes >= 2 only: 1 (broadcasting) and 0 (empty) get their own entries
    def f(x, y):
        return (x + y).sum(axis=1)
    sf = paddle.jit.to_static(f)
    for a, b in ((2, 2), (3, 3), (1, 4), (4, 1), (5, 5), (1, 1), (0, 0), (7, 7), (6, 6)):
        args = (paddle.randn([a, 3]), paddle.randn([b, 3]))
        same(sf(*args), f(*args))
    assert not explain(sf).get('eager'), explain(sf).get('eagerReason')
    assert count(sf) <= 6, count(sf)


def test_dtype_change_is_not_dynamic():
    def f(x):
        return x * 2
    sf = paddle.jit.to_static(f)
    for x in (paddle.ones([2, 2]), paddle.ones([2, 2], 'float64'), paddle.ones([3, 2], 'int32')):
        same(sf(x), f(x))
    assert count(sf) == 3, count(sf)

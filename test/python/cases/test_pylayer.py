"""paddle.autograd.PyLayer from Python (Paddle 2.6 semantics): custom exp/tanh against the
built-in gradients, save_for_backward, mark_non_differentiable, set_materialize_grads, ctx
attributes, nesting, create_graph, errors naming the class, and memory."""
import gc

import paddle
from paddle import _bridge
from paddle.autograd import PyLayer


def _close(a, b, tol=1e-9):
    a = a.tolist() if isinstance(a, paddle.Tensor) else a
    b = b.tolist() if isinstance(b, paddle.Tensor) else b
    assert len(a) == len(b), (a, b)
    for x, y in zip(a, b):
        assert abs(x - y) <= tol * (1 + abs(y)), (a, b)


def _leaf(data):
    x = paddle.to_tensor(data, dtype='float64')
    x.stop_gradient = False
    return x


class Exp(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * y


class Tanh(PyLayer):
    @staticmethod
    def forward(ctx, x, scale=1.0):
        ctx.scale = scale                 # arbitrary attributes
        ctx.grad_was_on = paddle.is_grad_enabled()
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y * scale

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * ctx.scale * (1 - y * y)


def test_custom_exp_and_tanh_match_builtin_gradients():
    w = paddle.to_tensor([1.0, 2.0, 3.0], dtype='float64')
    x = _leaf([0.1, -0.5, 1.2])
    y = Exp.apply(x)
    assert not y.stop_gradient
    (y * w).sum().backward()
    x2 = _leaf([0.1, -0.5, 1.2])
    (paddle.exp(x2) * w).sum().backward()
    _close(x.grad, x2.grad)

    x = _leaf([0.3, -0.7])
    Tanh.apply(x, scale=2.0).sum().backward()
    x2 = _leaf([0.3, -0.7])
    (paddle.tanh(x2) * 2).sum().backward()
    _close(x.grad, x2.grad)


def test_forward_runs_under_no_grad():
    ctxs = []

    class Probe(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctxs.append(paddle.is_grad_enabled())
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    x = _leaf([1.0])
    Probe.apply(x).sum().backward()
    assert ctxs == [False]
    _close(x.grad, [2])


def test_several_inputs_outputs_needs_input_grad_and_none():
    seen = {}

    class MulAdd(PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            seen['needs'] = ctx.needs_input_grad
            ctx.save_for_backward(a, b)
            return a * b, a + b

        @staticmethod
        def backward(ctx, dm, ds):
            a, b = ctx.saved_tensor()
            return dm * b + ds, None

    a = _leaf([1.0, 2.0])
    b = paddle.to_tensor([3.0, 4.0], dtype='float64')
    m, s = MulAdd.apply(a, b)
    assert seen['needs'] == (True, False)
    (m.sum() + s.sum()).backward()
    _close(a.grad, [4, 5])


def _splitter(materialize, seen):
    class Split(PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = x * 0
            ctx.mark_non_differentiable(idx)
            ctx.set_materialize_grads(materialize)
            return x * 2, idx

        @staticmethod
        def backward(ctx, dy, didx):
            seen.append(didx)
            return dy * 2
    return Split


def test_mark_non_differentiable_and_materialize_grads():
    seen = []
    for materialize in (True, False):
        x = _leaf([1.0, 2.0])
        y, idx = _splitter(materialize, seen).apply(x)
        assert idx.stop_gradient
        y.sum().backward()
        _close(x.grad, [2, 2])
    assert seen[0] is not None and seen[0].tolist() == [0, 0]
    assert seen[1] is None


def test_nested_and_create_graph():
    class Outer(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return Exp.apply(Exp.apply(x))

        @staticmethod
        def backward(ctx, dy):
            x, = ctx.saved_tensor()
            e = Exp.apply(x)
            return dy * e * Exp.apply(e)

    import math
    x = _leaf([0.2, -0.3])
    g, = paddle.grad(Outer.apply(x).sum(), x, create_graph=True)
    _close(g, [math.exp(v) * math.exp(math.exp(v)) for v in (0.2, -0.3)])
    h, = paddle.grad(g.sum(), x)
    _close(h, [math.exp(v) * math.exp(math.exp(v)) * (1 + math.exp(v)) for v in (0.2, -0.3)])


def test_identity_layer_returning_its_input():
    class Id(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = _leaf([1.0, 2.0])
    y = Id.apply(x)
    assert y is not x and x.is_leaf
    (y * 3).sum().backward()
    _close(x.grad, [3, 3])


def _raises(fn, pattern):
    import re
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        assert re.search(pattern, str(e)), str(e)
        return e
    raise AssertionError('expected an error matching %r' % pattern)


def test_errors_name_the_class():
    class TooMany(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy, dy

    class BadShape(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, dy):
            return dy

    class Raises(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            raise ValueError('custom failure in backward')

    class NotTensor(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return 3

    x = _leaf([1.0, 2.0])
    _raises(lambda: TooMany.apply(x).sum().backward(), r'TooMany: backward returned 2 gradients, but forward had 1 Tensor input')
    _raises(lambda: BadShape.apply(x).backward(), r'BadShape: backward returned a gradient of shape \[\] for input 0 of shape \[2\]')
    e = _raises(lambda: Raises.apply(x).sum().backward(), r'custom failure in backward')
    assert isinstance(e, ValueError)
    _raises(lambda: NotTensor.apply(x).sum().backward(), r'NotTensor: backward must return Tensors or None, got int')
    # The runtime is usable afterwards.
    Exp.apply(x).sum().backward()


def test_autograd_errors():
    x = _leaf([1.0, 2.0])
    y = Exp.apply(x)
    y.backward()
    _raises(lambda: y.backward(), r"second time.*op 'Exp'.*retain_graph=True")
    g, = paddle.grad(x * x, x)           # a non-scalar output: ones, as Paddle 2.6
    _close(g, [2, 4])
    _raises(lambda: x.exp_(), r"Leaf Var .* can't use inplace strategy")


def test_memory_returns_to_baseline():
    x = _leaf([0.5, 1.5, -1.0])

    def step():
        Tanh.apply(Exp.apply(x)).sum().backward()
        with paddle.no_grad():
            Exp.apply(x)                  # no node: the ctx goes at once

    step()
    gc.collect()
    _bridge.flush_frees()
    _bridge.clear_caches()
    base = _bridge.live_tensors()
    layers = len(paddle.autograd._pylayers)   # earlier tests' retained/failed graphs wait for the GC
    for _ in range(4):
        step()
    gc.collect()
    _bridge.flush_frees()
    _bridge.clear_caches()
    assert _bridge.live_tensors() == base, (_bridge.live_tensors(), base)
    assert len(paddle.autograd._pylayers) == layers, (len(paddle.autograd._pylayers), layers)

"""Eager autograd from Python: backward, .grad, paddle.grad, grad modes, hooks, detach,
clear_grad, and a small MLP's parameter gradients against central finite differences."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle import _bridge


def _close(a, b, tol=1e-6):
    a, b = _flat(a), _flat(b)
    assert len(a) == len(b), (a, b)
    for x, y in zip(a, b):
        assert abs(x - y) <= tol * (1 + abs(y)), (a, b)


def _flat(v):
    if isinstance(v, paddle.Tensor):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            out.extend(_flat(x))
        return out
    return [v]


def _leaf(data):
    x = paddle.to_tensor(data, dtype='float64')
    x.stop_gradient = False
    return x


def test_stop_gradient_defaults_and_propagation():
    a = paddle.to_tensor([1.0, 2.0])
    assert a.stop_gradient
    assert a.grad is None
    b = _leaf([3.0, 4.0])
    c = a * b
    assert not c.stop_gradient
    assert not c.is_leaf and b.is_leaf
    assert (a + a).stop_gradient


def test_backward_accumulates_and_clear_grad():
    x = _leaf([1.0, 2.0, 3.0])
    (x * x).sum().backward()
    _close(x.grad, [2, 4, 6])
    (x * 3).sum().backward()
    _close(x.grad, [5, 7, 9])
    x.clear_grad()
    _close(x.grad, [0, 0, 0])
    x.clear_gradient(False)
    assert x.grad is None


def test_backward_with_grad_tensor_and_retain_graph():
    x = _leaf([1.0, 2.0])
    y = paddle.exp(x)
    y.backward(paddle.to_tensor([1.0, 10.0], dtype='float64'), retain_graph=True)
    y.backward(paddle.to_tensor([1.0, 10.0], dtype='float64'))
    _close(x.grad, [2 * 2.718281828459045, 20 * 7.38905609893065])
    try:
        y.backward(paddle.to_tensor([1.0, 1.0], dtype='float64'))
    except RuntimeError as e:
        assert 'retain_graph=True' in str(e)
    else:
        raise AssertionError('a second backward through a freed graph must raise')


def test_paddle_grad_second_derivative():
    x = _leaf([2.0])
    y = x * x * x
    (dx,) = paddle.grad(y, x, create_graph=True)
    _close(dx, [12.0])
    assert not dx.stop_gradient
    (ddx,) = paddle.grad(dx, x)
    _close(ddx, [12.0])
    assert x.grad is None


def test_paddle_grad_allow_unused_and_grad_outputs():
    x = _leaf([1.0, 2.0])
    z = _leaf([0.5])
    y = x * 2
    gx, gz = paddle.grad([y], [x, z], grad_outputs=[paddle.to_tensor([3.0, 4.0], dtype='float64')], allow_unused=True)
    _close(gx, [6, 8])
    assert gz is None


def test_no_grad_enable_grad_set_grad_enabled():
    x = _leaf([1.0])
    with paddle.no_grad():
        assert not paddle.is_grad_enabled()
        assert (x * 2).stop_gradient
        with paddle.enable_grad():
            assert not (x * 2).stop_gradient
    assert paddle.is_grad_enabled()

    @paddle.no_grad()
    def f(t):
        return t * 2

    @paddle.no_grad
    def g(t):
        return t * 2

    assert f(x).stop_gradient and g(x).stop_gradient
    with paddle.set_grad_enabled(False):
        assert (x + 1).stop_gradient
    assert not (x + 1).stop_gradient


def test_hooks_and_detach():
    x = _leaf([1.0, 2.0])
    h = x * 2
    seen = []

    def double(g):
        seen.append(g.tolist())
        return g * 10

    handle = h.register_hook(double)
    x.register_hook(lambda g: seen.append(g.tolist()))
    h.sum().backward(retain_graph=True)
    assert seen == [[1.0, 1.0], [20.0, 20.0]], seen
    _close(x.grad, [20, 20])
    assert handle.remove()
    x.clear_grad()
    h.sum().backward()
    _close(x.grad, [2, 2])
    d = h.detach()
    assert d.stop_gradient


def test_hook_exception_propagates():
    x = _leaf([1.0])

    def bad(g):
        raise KeyError('from the hook')

    x.register_hook(bad)
    try:
        (x * 2).sum().backward()
    except KeyError as e:
        assert 'from the hook' in str(e)
    else:
        raise AssertionError('the hook error must reach the caller')


def test_retain_grads():
    x = _leaf([1.0, 2.0])
    h = paddle.exp(x)
    h.retain_grads()
    (h * h).sum().backward()
    _close(h.grad, [2 * 2.718281828459045, 2 * 7.38905609893065])


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 5)
        self.fc2 = nn.Linear(5, 2)

    def forward(self, x):
        return self.fc2(F.tanh(self.fc1(x)))


def test_mlp_parameter_gradients_match_finite_differences():
    paddle.seed(1)
    m = MLP()
    for p in m.parameters():
        assert not p.stop_gradient
    x = paddle.to_tensor([[0.1, -0.2, 0.3], [0.5, 0.4, -0.1], [-0.3, 0.2, 0.9], [0.0, 0.7, -0.6]])
    label = paddle.to_tensor([1, 0, 1, 0])

    def loss():
        return F.cross_entropy(m(x), label)

    loss().backward()
    eps = 1e-2
    for p in m.parameters():
        analytic = _flat(p.grad)
        values = _flat(p)
        for j in range(len(values)):
            numeric = []
            for d in (eps, -eps):
                v = list(values)
                v[j] += d
                p.set_value(paddle.to_tensor(v, dtype='float32').reshape(p.shape))
                with paddle.no_grad():
                    numeric.append(loss().item())
            p.set_value(paddle.to_tensor(values, dtype='float32').reshape(p.shape))
            num = (numeric[0] - numeric[1]) / (2 * eps)
            assert abs(num - analytic[j]) < 2e-3, (p.name, j, num, analytic[j])


def test_memory_returns_to_baseline_after_backward():
    w = _leaf([[0.1, 0.2], [0.3, 0.4]])
    x = paddle.to_tensor([[1.0, 2.0]], dtype='float64')

    def step():
        y = F.relu(paddle.matmul(x, w))
        (y * y).mean().backward()

    import gc
    step()
    gc.collect()
    _bridge.flush_frees()
    _bridge.clear_caches()
    base = _bridge.live_tensors()
    for _ in range(5):
        step()
    gc.collect()
    _bridge.flush_frees()
    _bridge.clear_caches()
    assert _bridge.live_tensors() == base, (_bridge.live_tensors(), base)


def test_grad_survives_dropped_python_wrappers():
    x = _leaf([1.0, 2.0])
    (x * x).sum().backward()
    for _ in range(200):   # past the bridge's batched frees
        g = x.grad
        del g
    _bridge.flush_frees()
    _close(x.grad, [2, 4])
    g = x.grad
    (x * 3).sum().backward()
    _close(g, [5, 7])      # accumulated in place, visible through an earlier .grad


def test_inplace_ops_on_the_tape():
    x = _leaf([-1.0, 2.0, 3.0])
    y = x * 2
    y.add_(paddle.to_tensor([1.0, 1.0, 1.0], dtype='float64'))
    y.scale_(0.5)
    y.relu_()
    y.sum().backward()
    _close(x.grad, [0, 1, 1])
    try:
        x.add_(paddle.to_tensor([1.0, 1.0, 1.0], dtype='float64'))
    except RuntimeError as e:
        assert "can't use inplace strategy" in str(e)
    else:
        raise AssertionError('a leaf that requires grad cannot be written in place')
    with paddle.no_grad():
        x.add_(paddle.to_tensor([1.0, 1.0, 1.0], dtype='float64'))   # fine without grad (optimizer updates)
    _close(x, [0, 3, 4])


def test_mlp_with_manual_sgd_converges():
    """A training loop written by hand (no optimizer): backward, then p -= lr * grad under no_grad."""
    paddle.seed(4)
    # two interleaved half-moons' worth of points: not linearly separable
    xs, ys = [], []
    for i in range(32):
        t = i / 31.0 * 3.14159
        xs.append([paddle.cos(paddle.to_tensor(t)).item(), paddle.sin(paddle.to_tensor(t)).item()])
        ys.append(0)
        xs.append([1.0 - paddle.cos(paddle.to_tensor(t)).item(), 0.5 - paddle.sin(paddle.to_tensor(t)).item()])
        ys.append(1)
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)
    net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    params = net.parameters()
    first = None
    for step in range(300):
        loss = F.cross_entropy(net(x), y)
        if first is None:
            first = loss.item()
        loss.backward()
        with paddle.no_grad():
            for p in params:
                p.subtract_(p.grad * 0.5)
                p.clear_grad()
    final = F.cross_entropy(net(x), y).item()
    acc = (net(x).argmax(axis=1) == y).astype('float32').mean().item()
    assert final < first * 0.25, (first, final)
    assert acc >= 0.95, acc

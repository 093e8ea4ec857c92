"""Translator: paddle.autograd.PyLayer inside translated code. apply's forward is captured into
the graph (its ops run under no_grad, as in eager), the user's Python backward is attached by one
concrete step after that graph (break SOT025), and the code after apply continues in the next
graph: outputs and gradients equal eager PyLayer's, later calls hit the cache, and a layer using
it exports for inference. A forward the translator cannot simulate runs apply eagerly."""
import json
import os

import _skiff_sot
import paddle
import paddle.nn as nn
from paddle.autograd import PyLayer
from sot_check import breaks, count, explain, same, t


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensor()
        return g * 3 * x * x


class SignSTE(PyLayer):
    """Straight-through estimator: the backward is not the derivative of the forward, so equal
    gradients prove the user's backward ran (autodiff of the captured ops would give zeros)."""
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return paddle.sign(x) * scale

    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale


class TwoOut(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.mark_non_differentiable()
        return a * b, a + b

    @staticmethod
    def backward(ctx, ga, gb):
        a, b = ctx.saved_tensor()
        return ga * b + gb, ga * a + gb


class Opaque(PyLayer):
    """forward does something the translator does not simulate inside apply (a print): apply
    then runs eagerly as one concrete step."""
    @staticmethod
    def forward(ctx, x):
        print('opaque forward')
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


def f_cube(x, w):
    y = x * w
    z = Cube.apply(y)
    return (z + y).sum()


def f_ste(x, w):
    return (SignSTE.apply(x * w - 1.0, 3.0) * w).sum()


def f_two(x, w):
    p, s = TwoOut.apply(x * w, w + 1.0)
    return (p * 2 + s).sum()


def f_opaque(x, w):
    return (Opaque.apply(x * w) + w).sum()


X = t([1.0, 2.0, -1.0])
W = [0.5, 1.5, 2.0]


def _run(fn, calls=3):
    """(eager loss, grad), (translated loss, grad) per call; the translated wrapper."""
    sf = paddle.jit.to_static(fn)
    out = []
    for _ in range(calls):
        pair = []
        for g in (fn, sf):
            w = t(W)
            w.stop_gradient = False
            loss = g(X, w)
            loss.backward()
            pair.append((loss, w.grad))
        out.append(pair)
    return out, sf


def test_pylayer_forward_and_backward_equal_eager():
    for fn in (f_cube, f_ste, f_two, f_opaque):
        results, sf = _run(fn)
        for (le, ge), (lt, gt) in results:
            same(lt, le, '%s loss' % fn.__name__)
            same(gt, ge, '%s grad' % fn.__name__)
        assert not explain(sf).get('eager'), explain(sf).get('eagerReason')


def test_pylayer_forward_is_in_the_graph_and_cached():
    _, sf = _run(f_cube, calls=3)
    e = explain(sf)
    assert 'SOT025' in breaks(sf), breaks(sf)
    # graph 1: x * w and forward's two multiplies; graph 2: z + y and the sum
    assert e['opsPerGraph'][0] >= 3, e['opsPerGraph']
    assert count(sf) == 2, count(sf)


def test_pylayer_backward_runs_the_graph_programs_around_it():
    counters = lambda: json.loads(_skiff_sot.training_counters())
    before = counters()
    _run(f_cube, calls=1)
    after = counters()
    # the graph before apply (x * w wants gradients) ran its backward as an executor program,
    # reached through the user's backward
    assert after['backwardRuns'] > before['backwardRuns'], (before, after)


def test_pylayer_forward_the_translator_cannot_simulate_runs_eagerly():
    _, sf = _run(f_opaque, calls=1)
    assert 'SOT025' not in breaks(sf), breaks(sf)


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return Cube.apply(self.fc(x)) + 1


def test_layer_with_pylayer_trains_and_exports():
    paddle.seed(3)
    a = Net()
    b = Net()
    b.set_state_dict(a.state_dict())
    sb = paddle.jit.to_static(b)
    x = t([[1.0, 2.0, -1.0], [0.5, -0.5, 0.25]])
    for _ in range(2):
        la, lb = a(x).sum(), sb(x).sum()
        same(lb, la)
        la.backward()
        lb.backward()
        for pa, pb in zip(a.parameters(), b.parameters()):
            same(pb.grad, pa.grad)
            pa.clear_grad()
            pb.clear_grad()
    path = '/tmp/skiff_sot_pylayer/net'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    paddle.jit.save(sb, path, input_spec=[paddle.static.InputSpec([None, 3], 'float32', 'x')])
    loaded = paddle.jit.load(path)
    same(loaded(x), a(x))

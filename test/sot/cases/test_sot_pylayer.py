"""Translator: paddle.autograd.PyLayer inside translated code. apply's forward is captured into
the graph (its ops run under no_grad, as in eager) followed by one `pylayer` node, and the code
after apply stays in the same graph: the graph's backward program calls the user's Python
backward through an executor host call (sot/pylayer_graph.ts). Outputs and gradients equal eager
PyLayer's, a few SGD steps equal eager's, later calls hit the cache, a wrong backward result is
an error naming the PyLayer, and a layer using it exports for inference without any host call.
A forward the translator cannot simulate runs apply eagerly; a ctx the graph cannot carry
(mark_non_differentiable of an output) keeps the older split: forward in one graph, backward
attached by a concrete step (break SOT025)."""
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


def _counters():
    return json.loads(_skiff_sot.training_counters())


def test_pylayer_forward_is_in_the_graph_and_cached():
    for fn in (f_cube, f_ste, f_two):
        _, sf = _run(fn, calls=3)
        e = explain(sf)
        assert not breaks(sf), (fn.__name__, breaks(sf))
        # one graph: x * w, forward's ops, the pylayer node, what follows apply
        assert len(e['opsPerGraph']) == 1, (fn.__name__, e['opsPerGraph'])
        assert count(sf) == 1, (fn.__name__, count(sf))


def test_pylayer_backward_runs_through_the_executor_host_call():
    for fn in (f_cube, f_ste, f_two):
        before = _counters()
        _run(fn, calls=2)
        after = _counters()
        # each translated backward: one backward program run, which called the user's backward
        # through the host function once; the tape never ran it
        assert after['backwardRuns'] - before['backwardRuns'] == 2, (fn.__name__, before, after)
        assert after['pylayer']['hostCalls'] - before['pylayer']['hostCalls'] == 2, (fn.__name__, before, after)
        assert after['pylayer']['tapeCalls'] == before['pylayer']['tapeCalls'], (fn.__name__, before, after)


class Clip(PyLayer):
    """Clamps in forward, passes gradients straight through where |x| <= bound (not the
    derivative of any captured op, so equal training proves the host call ran)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.bound = 1.0
        return paddle.clip(x, -1.0, 1.0)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensor()
        return g * (paddle.abs(x) <= ctx.bound).astype('float32') + 0.1 * g


class ClipNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc2(Clip.apply(self.fc1(x)))


def test_sgd_steps_through_a_captured_pylayer_equal_eager():
    paddle.seed(11)
    a = ClipNet()
    b = ClipNet()
    b.set_state_dict(a.state_dict())
    sb = paddle.jit.to_static(b)
    oa = paddle.optimizer.SGD(learning_rate=0.1, parameters=a.parameters())
    ob = paddle.optimizer.SGD(learning_rate=0.1, parameters=b.parameters())
    x = paddle.to_tensor([[0.5, -1.0, 2.0, 0.1], [1.5, 0.2, -0.3, -2.0], [0.0, 1.0, 1.0, -1.0]])
    y = paddle.to_tensor([[1.0], [-1.0], [0.5]])
    before = _counters()
    for step in range(4):
        la = ((a(x) - y) ** 2).mean()
        lb = ((sb(x) - y) ** 2).mean()
        same(lb, la, 'loss at step %d' % step)
        la.backward()
        lb.backward()
        oa.step()
        ob.step()
        oa.clear_grad()
        ob.clear_grad()
    for pa, pb in zip(a.parameters(), b.parameters()):
        same(pb, pa, 'parameter after 4 steps')
    after = _counters()
    assert after['pylayer']['hostCalls'] - before['pylayer']['hostCalls'] == 4, (before, after)


def test_small_graphs_run_op_by_op_call_the_same_backward_from_the_tape():
    # below MIN_GRAPH_SIZE the graph runs op by op: the pylayer node becomes a tape node calling
    # the same registered backward (no executor run)
    old = _skiff_sot.get_flag('min_graph_size')
    _skiff_sot.set_flag('min_graph_size', 1000)
    try:
        before = _counters()
        results, sf = _run(f_ste, calls=2)
        after = _counters()
    finally:
        _skiff_sot.set_flag('min_graph_size', old)
    for (le, ge), (lt, gt) in results:
        same(lt, le)
        same(gt, ge)
    assert after['pylayer']['tapeCalls'] - before['pylayer']['tapeCalls'] == 2, (before, after)
    assert after['pylayer']['hostCalls'] == before['pylayer']['hostCalls'], (before, after)


def test_double_backward_through_a_captured_pylayer_equals_eager():
    # create_graph recomputes the graph on the tape: the pylayer node is then a tape PyLayer
    # whose backward (Cube's, made of differentiable ops) is differentiated again
    sf = paddle.jit.to_static(f_cube)
    got = []
    for g in (f_cube, sf):
        w = t(W)
        w.stop_gradient = False
        loss = g(X, w)
        gw, = paddle.grad([loss], [w], create_graph=True)
        (gw * gw).sum().backward()
        got.append((gw, w.grad))
    same(got[1][0], got[0][0], 'first gradient')
    same(got[1][1], got[0][1], 'second-order gradient')


class WrongShape(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g.sum()


class WrongCount(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class Raises(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError('no gradient for you')


def f_raises(x, w):
    return Raises.apply(x * w).sum()


def f_wrong_shape(x, w):
    return WrongShape.apply(x * w).sum()


def f_wrong_count(x, w):
    return WrongCount.apply(x * w).sum()


def test_wrong_backward_results_name_the_pylayer():
    for fn, words in ((f_wrong_shape, ('WrongShape', 'shape')), (f_wrong_count, ('WrongCount', '2 gradient'))):
        sf = paddle.jit.to_static(fn)
        w = t(W)
        w.stop_gradient = False
        loss = sf(X, w)
        try:
            loss.backward()
        except Exception as e:   # noqa: BLE001 (any error type, as long as it says what was wrong)
            msg = str(e)
            assert all(k in msg for k in words), (fn.__name__, msg)
        else:
            raise AssertionError('%s: backward did not fail' % fn.__name__)
    # an exception of the user's backward reaches the caller as it is (type and message)
    w = t(W)
    w.stop_gradient = False
    loss = paddle.jit.to_static(f_raises)(X, w)
    try:
        loss.backward()
    except ValueError as e:
        assert str(e) == 'no gradient for you', str(e)
    else:
        raise AssertionError('f_raises: backward did not fail')


class MarksOutput(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        n = x + 1
        ctx.mark_non_differentiable(n)
        return y, n

    @staticmethod
    def backward(ctx, gy, gn):
        return gy * 2


def f_marks(x, w):
    y, n = MarksOutput.apply(x * w)
    return (y * n).sum()


def test_ctx_the_graph_cannot_carry_keeps_the_split_with_sot025():
    results, sf = _run(f_marks, calls=2)
    for (le, ge), (lt, gt) in results:
        same(lt, le)
        same(gt, ge)
    assert 'SOT025' in breaks(sf), breaks(sf)


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
    # inference export: forward only, no host call (backward is not needed)
    d = os.path.dirname(path)
    for name in os.listdir(d):
        with open(os.path.join(d, name), 'rb') as fh:
            data = fh.read()
        assert b'host_call' not in data and b'pylayer' not in data, name

"""Translator and autograd: gradients through a translated function or Layer equal eager's.
Graphs whose inputs want gradients run op by op on the eager tape (training through executor
graphs with PIR-autodiff backward programs comes with the translator's part two); under
no_grad the same translation runs on the executor."""
import _skiff_sot
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from sot_check import assert_no_breaks, same


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def _twin():
    a, b = MLP(), MLP()
    b.set_state_dict(a.state_dict())
    return a, paddle.jit.to_static(b)


def _grads(layer):
    return [p.grad for p in layer.parameters()]


def test_parameter_gradients_equal_eager():
    eager, static = _twin()
    x = paddle.randn([5, 4])
    label = paddle.to_tensor([0, 2, 1, 1, 0], dtype='int64')
    for _ in range(2):   # the second call runs the cached translation
        for layer in (eager, static):
            loss = F.cross_entropy(layer(x), label)
            loss.backward()
        same(_grads(static), _grads(eager))
        for layer in (eager, static):
            layer.clear_gradients()
    assert_no_breaks(static.forward)


def test_input_gradients_and_stop_gradient_flags():
    def f(x, w):
        return (paddle.tanh(x @ w) * 2.0).sum()
    sf = paddle.jit.to_static(f)
    for fn in (f, sf):
        x = paddle.randn([3, 4])
        x.stop_gradient = False
        w = paddle.randn([4, 2])
        out = fn(x, w)
        assert out.stop_gradient is False
        out.backward()
        assert x.grad is not None and w.grad is None
    xs = paddle.randn([3, 4])
    assert sf(xs, paddle.randn([4, 2])).stop_gradient is True


def test_training_steps_match_eager():
    eager, static = _twin()
    opts = [paddle.optimizer.SGD(0.1, parameters=l.parameters()) for l in (eager, static)]
    x = paddle.randn([8, 4])
    y = paddle.randint(0, 3, [8])
    for _ in range(3):
        for layer, opt in zip((eager, static), opts):
            loss = F.cross_entropy(layer(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
    same(static(x), eager(x))


def test_no_grad_inference_runs_on_the_executor():
    _, static = _twin()
    x = paddle.randn([2, 4])
    with paddle.no_grad():
        static(x)
        before = _skiff_sot.executor_runs()
        out = static(x)
        assert _skiff_sot.executor_runs() == before + 1
    assert out.stop_gradient is True
    before = _skiff_sot.executor_runs()
    assert static(x).stop_gradient is False   # parameters want gradients: op by op, on the tape
    assert _skiff_sot.executor_runs() == before

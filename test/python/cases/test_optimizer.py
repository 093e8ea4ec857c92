"""paddle.optimizer from Python: updates against closed forms (gradients from backward),
schedules against their formulas, state dicts, clipping and the errors Paddle raises."""
import math

import paddle


def _setup(values, grads, name=None):
    """A bias-free Linear whose weight's gradient after backward is exactly `grads`."""
    lin = paddle.nn.Linear(len(values), 1, weight_attr=paddle.ParamAttr(name=name) if name else None, bias_attr=False)
    lin.weight.set_value(paddle.to_tensor([[v] for v in values], dtype='float32'))
    x = paddle.to_tensor([grads], dtype='float32')
    return lin, x


def _step(opt_factory, values, grads, steps=2):
    lin, x = _setup(values, grads)
    opt = opt_factory(lin.parameters())
    for _ in range(steps):
        lin(x).sum().backward()   # d/dw of x @ w is x: the gradient is `grads`
        opt.step()
        opt.clear_grad()
    return [r[0] for r in lin.weight.tolist()], opt


def _close(a, b, tol=1e-5):
    assert len(a) == len(b), (a, b)
    for u, v in zip(a, b):
        assert abs(u - v) <= tol * (1 + abs(v)), (a, b)


P0, G = [1.5, -2.0, 0.25], [0.3, -1.2, 2.0]


def test_sgd_and_weight_decay():
    got, _ = _step(lambda ps: paddle.optimizer.SGD(0.1, parameters=ps), P0, G, steps=1)
    _close(got, [p - 0.1 * g for p, g in zip(P0, G)])
    got, _ = _step(lambda ps: paddle.optimizer.SGD(0.1, parameters=ps, weight_decay=paddle.regularizer.L2Decay(0.5)), P0, G, steps=1)
    _close(got, [p - 0.1 * (g + 0.5 * p) for p, g in zip(P0, G)])


def test_momentum_two_steps():
    got, _ = _step(lambda ps: paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=ps), P0, G)
    want = []
    for p, g in zip(P0, G):
        v = g
        p -= 0.1 * v
        v = 0.9 * v + g
        want.append(p - 0.1 * v)
    _close(got, want)


def test_adam_two_steps():
    got, opt = _step(lambda ps: paddle.optimizer.Adam(0.01, parameters=ps), P0, G)
    want = []
    for p, g in zip(P0, G):
        m = v = 0.0
        for t in (1, 2):
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            c2 = math.sqrt(1 - 0.999 ** t)
            p -= 0.01 * c2 / (1 - 0.9 ** t) * (m / (math.sqrt(v) + 1e-8 * c2))
        want.append(p)
    _close(got, want)
    keys = sorted(opt.state_dict())
    assert keys[0] == '@step' and any(k.endswith('_moment1_0') for k in keys), keys


def test_schedulers_follow_closed_forms():
    s = paddle.optimizer.lr.CosineAnnealingDecay(1.0, T_max=10, eta_min=0.1)
    for t in range(12):
        assert abs(s() - (0.1 + 0.45 * (1 + math.cos(math.pi * t / 10)))) < 1e-12
        s.step()
    w = paddle.optimizer.lr.LinearWarmup(0.5, 4, 0.0, 0.5)
    seen = []
    for _ in range(6):
        seen.append(round(w(), 6))
        w.step()
    assert seen == [0.0, 0.125, 0.25, 0.375, 0.5, 0.5], seen


def test_scheduler_drives_the_optimizer_and_user_schedules_work():
    class Halving(paddle.optimizer.lr.LRScheduler):
        def get_lr(self):
            return self.base_lr * 0.5 ** self.last_epoch
    s = Halving(0.4)
    lin = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(learning_rate=s, parameters=lin.parameters())
    assert opt.get_lr() == 0.4
    s.step()
    assert opt.get_lr() == 0.2
    try:
        opt.set_lr(0.1)
    except RuntimeError:
        pass
    else:
        raise AssertionError('set_lr with a scheduler must raise')


def test_global_norm_clipping():
    got, _ = _step(lambda ps: paddle.optimizer.SGD(1.0, parameters=ps, grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0)), [0.0, 0.0], [3.0, 4.0], steps=1)
    _close(got, [-0.6, -0.8])


def test_state_dict_round_trip_continues_identically():
    # optimizer state is keyed by parameter name (as in Paddle): same names, as in a new process
    a, x = _setup(P0, G, 'w_same')
    b, _ = _setup(P0, G, 'w_same')
    oa = paddle.optimizer.Adam(0.01, parameters=a.parameters())
    a(x).sum().backward()
    oa.step()
    oa.clear_grad()
    ob = paddle.optimizer.Adam(0.01, parameters=b.parameters())
    b.weight.set_value(a.weight)
    ob.set_state_dict(oa.state_dict())
    for lin, o in ((a, oa), (b, ob)):
        lin(x).sum().backward()
        o.step()
    _close([r[0] for r in b.weight.tolist()], [r[0] for r in a.weight.tolist()], 1e-6)


def test_errors():
    try:
        paddle.optimizer.Adam(0.01)
    except AttributeError as e:
        assert 'should not be None' in str(e)
    else:
        raise AssertionError('no error without parameters')
    lin = paddle.nn.Linear(2, 1)
    try:
        paddle.optimizer.Adam(0.01, beta1=1.5, parameters=lin.parameters())
    except Exception as e:  # noqa: BLE001
        assert 'beta1' in str(e)
    else:
        raise AssertionError('no error for beta1=1.5')

"""Every paddle.optimizer.lr scheduler from Python against its closed form (the formula of the
rate at epoch t, written here from Paddle's documentation), ReduceOnPlateau against hand-worked
metric sequences, state dicts, and argument errors."""
import math

import paddle

L = paddle.optimizer.lr


def _cos(start, end, pct):
    return end + (start - end) * (1 + math.cos(math.pi * pct)) / 2


def _lin(start, end, pct):
    return start + (end - start) * pct


def _phases(ps, anneal):
    def f(t):
        for frm, to, a, b in ps:
            if t <= to:
                return anneal(a, b, (t - frm) / (to - frm))
        frm, to, a, b = ps[-1]
        return anneal(a, b, (t - frm) / (to - frm))
    return f


def _warm_restarts(t, T0, mult):
    T, x = T0, t
    while x >= T:
        x -= T
        T *= mult
    return _cos(1.0, 0.0, x / T)


def _cyclic(t, period, up, scale):
    x = t % period
    return 0.1 + 0.9 * scale * (x / up if x <= up else (period - x) / (period - up))


TABLE = [
    ('StepDecay', lambda: L.StepDecay(0.5, 3, 0.2), lambda t: 0.5 * 0.2 ** (t // 3), 14),
    ('MultiStepDecay', lambda: L.MultiStepDecay(1.0, [2, 5, 9], 0.5), lambda t: 0.5 ** sum(1 for m in (2, 5, 9) if t >= m), 14),
    ('ExponentialDecay', lambda: L.ExponentialDecay(2.0, 0.8), lambda t: 2 * 0.8 ** t, 14),
    ('NaturalExpDecay', lambda: L.NaturalExpDecay(0.5, 0.1), lambda t: 0.5 * math.exp(-0.1 * t), 14),
    ('InverseTimeDecay', lambda: L.InverseTimeDecay(0.5, 0.25), lambda t: 0.5 / (1 + 0.25 * t), 14),
    ('PiecewiseDecay', lambda: L.PiecewiseDecay([3, 6], [1.0, 0.5, 0.1]), lambda t: 1.0 if t < 3 else 0.5 if t < 6 else 0.1, 14),
    ('NoamDecay', lambda: L.NoamDecay(64, 4, learning_rate=2.0), lambda t: 2 / 8 * min(1 if t == 0 else t ** -0.5, t / 8), 14),
    ('LambdaDecay', lambda: L.LambdaDecay(0.5, lambda e: 0.95 ** e), lambda t: 0.5 * 0.95 ** t, 14),
    ('MultiplicativeDecay', lambda: L.MultiplicativeDecay(0.5, lambda e: 1.0 / (e + 1)), lambda t: 0.5 / math.factorial(t + 1), 14),
    ('CosineAnnealingDecay', lambda: L.CosineAnnealingDecay(1.0, 10, 0.1), lambda t: _cos(1.0, 0.1, t / 10), 14),
    ('PolynomialDecay', lambda: L.PolynomialDecay(1.0, 4, 0.1, 2.0), lambda t: 0.9 * (1 - min(t, 4) / 4) ** 2 + 0.1, 14),
    ('PolynomialDecay cycle', lambda: L.PolynomialDecay(1.0, 4, 0.1, 1.0, cycle=True),
     lambda t: 0.9 * (1 - t / (4 * max(1, math.ceil(t / 4)))) + 0.1, 14),
    ('LinearWarmup', lambda: L.LinearWarmup(0.5, 4, 0.1, 0.5), lambda t: 0.1 + 0.4 * t / 4 if t < 4 else 0.5, 14),
    ('LinearWarmup to a scheduler', lambda: L.LinearWarmup(L.ExponentialDecay(0.5, 0.9), 3, 0.0, 0.5),
     lambda t: 0.5 * t / 3 if t < 3 else 0.5 * 0.9 ** (t - 3), 14),
    ('LinearLR', lambda: L.LinearLR(2.0, 5, 0.2, 0.8), lambda t: 2 * (0.2 + 0.6 * min(t, 5) / 5), 14),
    ('CosineAnnealingWarmRestarts', lambda: L.CosineAnnealingWarmRestarts(1.0, 4), lambda t: _warm_restarts(t, 4, 1), 14),
    ('CosineAnnealingWarmRestarts T_mult 2', lambda: L.CosineAnnealingWarmRestarts(1.0, 2, 2), lambda t: _warm_restarts(t, 2, 2), 20),
    ('OneCycleLR cos', lambda: L.OneCycleLR(1.0, 10), _phases([(0, 2, 0.04, 1.0), (2, 9, 1.0, 1e-4)], _cos), 11),
    ('OneCycleLR linear', lambda: L.OneCycleLR(2.0, 20, 10, 0.001, 0.25, 'linear'), _phases([(0, 4, 0.2, 2.0), (4, 19, 2.0, 0.001)], _lin), 21),
    ('OneCycleLR three_phase', lambda: L.OneCycleLR(1.0, 10, three_phase=True),
     _phases([(0, 2, 0.04, 1.0), (2, 4, 1.0, 0.04), (4, 9, 0.04, 1e-4)], _cos), 11),
    ('CyclicLR triangular', lambda: L.CyclicLR(0.1, 1.0, 2, 3), lambda t: _cyclic(t, 5, 2, 1.0), 16),
    ('CyclicLR triangular2', lambda: L.CyclicLR(0.1, 1.0, 2, 3, mode='triangular2'), lambda t: _cyclic(t, 5, 2, 0.5 ** (t // 5)), 16),
    ('CyclicLR exp_range', lambda: L.CyclicLR(0.1, 1.0, 3, mode='exp_range', exp_gamma=0.9), lambda t: _cyclic(t, 6, 3, 0.9 ** t), 16),
]


def test_closed_forms():
    for name, make, f, n in TABLE:
        s = make()
        for t in range(n):
            if t:
                s.step()
            assert abs(s() - f(t)) < 1e-12, (name, t, s(), f(t))


def test_step_with_an_epoch_jumps():
    for name, make, f, _ in TABLE:
        if name == 'LinearWarmup to a scheduler':
            continue
        s = make()
        s.step(7)
        assert abs(s() - f(7)) < 1e-12, (name, s(), f(7))


def test_reduce_on_plateau():
    # rates after each step(metric), worked out by hand from the rule (see the TS test's table)
    cases = [
        (dict(factor=0.5, patience=2, threshold=0.1, cooldown=1), [10, 9.5, 9.2, 9.1, 8, 8, 8, 8, 8, 8],
         [1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25]),
        (dict(factor=0.5, patience=0, min_lr=0.3), [5, 5, 5, 5], [1, 0.5, 0.3, 0.3]),
        (dict(mode='max', threshold_mode='abs', threshold=1, patience=0), [1, 1.5, 3, 3.5], [1, 0.1, 0.1, 0.01]),
    ]
    for kw, metrics, want in cases:
        s = L.ReduceOnPlateau(1.0, **kw)
        assert s() == 1.0 and s.last_epoch == 0
        got = []
        for m in metrics:
            s.step(m)
            got.append(s())
        assert all(abs(a - b) < 1e-14 for a, b in zip(got, want)), (kw, got, want)
    s = L.ReduceOnPlateau(1.0, patience=0)
    s.step(paddle.to_tensor([2.0]))
    s.step(paddle.to_tensor(3.0))
    assert abs(s() - 0.1) < 1e-14
    t = L.ReduceOnPlateau(1.0, patience=0)
    t.set_state_dict(s.state_dict())
    assert (t.best, t.last_epoch, t()) == (2.0, 2, s())
    lin = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(learning_rate=s, parameters=lin.parameters())
    assert abs(opt.get_lr() - 0.1) < 1e-14
    for bad, word in ((lambda: s.step(paddle.to_tensor([1.0, 2.0])), 'one-element'), (lambda: s.step('x'), 'metrics')):
        try:
            bad()
        except (TypeError, ValueError) as e:
            assert word in str(e), str(e)
        else:
            raise AssertionError('no error for ' + word)


def test_scheduler_state_dict_round_trip():
    a = L.OneCycleLR(1.0, 10)
    for _ in range(4):
        a.step()
    b = L.OneCycleLR(1.0, 10)
    b.set_state_dict(a.state_dict())
    assert b.last_epoch == 4
    a.step()
    b.step()
    assert a() == b()


def test_argument_errors():
    cases = [
        (lambda: L.PiecewiseDecay([], [1.0]), 'boundaries'),
        (lambda: L.PiecewiseDecay([2, 4], [1.0, 2.0]), 'one more element'),
        (lambda: L.NoamDecay(0, 4), 'd_model'),
        (lambda: L.LambdaDecay(1.0, 3), 'lr_lambda'),
        (lambda: L.MultiplicativeDecay(1.0, None), 'lr_lambda'),
        (lambda: L.OneCycleLR(1.0, 10, phase_pct=0.6, three_phase=True), 'phase_pct'),
        (lambda: L.OneCycleLR(1.0, 10, anneal_strategy='exp'), 'anneal_strategy'),
        (lambda: L.OneCycleLR(1.0, 2), 'too small'),
        (lambda: L.CyclicLR(0.1, 1.0, 0), 'step_size_up'),
        (lambda: L.CyclicLR(0.1, 1.0, 2, mode='saw'), 'mode'),
        (lambda: L.ReduceOnPlateau(1.0, mode='mid'), 'mode'),
        (lambda: L.ReduceOnPlateau(1.0, factor=1.5), 'gamma should be < 1.0'),
        (lambda: L.ReduceOnPlateau(1.0, threshold_mode='x'), 'threshold mode'),
    ]
    for make, word in cases:
        try:
            make()
        except (TypeError, ValueError) as e:
            assert word in str(e), (word, str(e))
        else:
            raise AssertionError('no error for ' + word)
    s = L.OneCycleLR(1.0, 3, phase_pct=0.5)
    s.step(3)
    try:
        s.step()
    except ValueError as e:
        assert 'tried to step 4 times' in str(e)
    else:
        raise AssertionError('OneCycleLR stepped past total_steps')

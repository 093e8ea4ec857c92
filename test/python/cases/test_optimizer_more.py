"""paddle.optimizer Adadelta, Adamax and Lamb from Python against their closed forms (gradients
from backward), per-group settings, AdamW's apply_decay_param_fun, Lamb's
exclude_from_weight_decay_fn, state-dict round trips and argument errors."""
import math

import paddle


def _lin(values, name=None):
    lin = paddle.nn.Linear(len(values), 1, weight_attr=paddle.ParamAttr(name=name) if name else None, bias_attr=False)
    lin.weight.set_value(paddle.to_tensor([[v] for v in values], dtype='float32'))
    return lin


def _weights(lin):
    return [r[0] for r in lin.weight.tolist()]


def _run(make, values, grads_seq, name=None):
    """Steps with gradient grads_seq[k] at step k (the input row is the gradient of sum(x @ w))."""
    lin = _lin(values, name)
    opt = make(lin.parameters())
    for g in grads_seq:
        lin(paddle.to_tensor([g], dtype='float32')).sum().backward()
        opt.step()
        opt.clear_grad()
    return _weights(lin), opt


def _close(a, b, tol=2e-5):
    assert len(a) == len(b), (a, b)
    for u, v in zip(a, b):
        assert abs(u - v) <= tol * (1 + abs(v)), (a, b)


def _adadelta(lr, rho, eps):
    def step(p, g, t, s):
        s.setdefault('asg', [0.0] * len(p))
        s.setdefault('asu', [0.0] * len(p))
        out = []
        for i, (pi, gi) in enumerate(zip(p, g)):
            s['asg'][i] = rho * s['asg'][i] + (1 - rho) * gi * gi
            u = -math.sqrt((s['asu'][i] + eps) / (s['asg'][i] + eps)) * gi
            s['asu'][i] = rho * s['asu'][i] + (1 - rho) * u * u
            out.append(pi + lr * u)
        return out
    return step


def _adamax(lr, b1, b2, eps):
    def step(p, g, t, s):
        s.setdefault('m', [0.0] * len(p))
        s.setdefault('u', [0.0] * len(p))
        out = []
        for i, (pi, gi) in enumerate(zip(p, g)):
            s['m'][i] = b1 * s['m'][i] + (1 - b1) * gi
            s['u'][i] = max(b2 * s['u'][i] + eps, abs(gi))
            out.append(pi - lr / (1 - b1 ** t) * s['m'][i] / s['u'][i])
        return out
    return step


def _lamb(lr, wd, b1=0.9, b2=0.999, eps=1e-6, always_adapt=False):
    def step(p, g, t, s):
        s.setdefault('m', [0.0] * len(p))
        s.setdefault('v', [0.0] * len(p))
        r = []
        for i, (pi, gi) in enumerate(zip(p, g)):
            s['m'][i] = b1 * s['m'][i] + (1 - b1) * gi
            s['v'][i] = b2 * s['v'][i] + (1 - b2) * gi * gi
            r.append((s['m'][i] / (1 - b1 ** t)) / (math.sqrt(s['v'][i] / (1 - b2 ** t)) + eps) + wd * pi)
        pn, rn = math.sqrt(sum(x * x for x in p)), math.sqrt(sum(x * x for x in r))
        ratio = pn / rn if (wd > 0 or always_adapt) and pn > 0 and rn > 0 else 1.0
        return [pi - lr * ratio * ri for pi, ri in zip(p, r)]
    return step


P0 = [1.5, -2.0, 0.25]
GS = [[0.3, -1.2, 2.0], [0.1, 0.4, -1.0], [-0.2, -0.3, 0.5]]


def _want(ref, p0=P0, gs=GS):
    s, p = {}, list(p0)
    for t, g in enumerate(gs, 1):
        p = ref(p, g, t, s)
    return p


CASES = [
    ('Adadelta', lambda ps: paddle.optimizer.Adadelta(learning_rate=1.0, rho=0.9, epsilon=1e-4, parameters=ps), _adadelta(1.0, 0.9, 1e-4)),
    ('Adadelta defaults', lambda ps: paddle.optimizer.Adadelta(parameters=ps), _adadelta(0.001, 0.95, 1e-6)),
    ('Adamax', lambda ps: paddle.optimizer.Adamax(learning_rate=0.1, beta1=0.5, beta2=0.8, epsilon=1e-3, parameters=ps), _adamax(0.1, 0.5, 0.8, 1e-3)),
    ('Adamax defaults', lambda ps: paddle.optimizer.Adamax(parameters=ps), _adamax(0.001, 0.9, 0.999, 1e-8)),
    ('Lamb', lambda ps: paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.3, parameters=ps), _lamb(0.05, 0.3)),
    ('Lamb no decay', lambda ps: paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.0, parameters=ps), _lamb(0.05, 0.0)),
    ('Lamb always_adapt', lambda ps: paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.0, always_adapt=True, parameters=ps),
     _lamb(0.05, 0.0, always_adapt=True)),
]


def test_three_steps_match_closed_forms():
    for name, make, ref in CASES:
        got, _ = _run(make, P0, GS)
        try:
            _close(got, _want(ref))
        except AssertionError as e:
            raise AssertionError('%s: %s' % (name, e))


def test_scheduler_drives_new_optimizers():
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    lin = _lin(P0)
    opt = paddle.optimizer.Adamax(learning_rate=sched, parameters=lin.parameters())
    ref, s, p = _adamax(0.1, 0.9, 0.999, 1e-8), {}, list(P0)
    for t, g in enumerate(GS, 1):
        lin(paddle.to_tensor([g], dtype='float32')).sum().backward()
        opt.step()
        opt.clear_grad()
        # the rate of step t is the scheduler's at epoch t-1; Adamax's lr enters linearly
        lr = 0.1 * 0.5 ** (t - 1)
        p = _adamax(lr, 0.9, 0.999, 1e-8)(p, g, t, s)
        sched.step()
    _close(_weights(lin), p)


def test_groups_override_rate_and_settings():
    a, b = _lin(P0), _lin(P0)
    opt = paddle.optimizer.Adamax(learning_rate=0.1, parameters=[
        {'params': a.parameters()},
        {'params': b.parameters(), 'learning_rate': 0.5, 'beta1': 0.5},
    ])
    for g in GS:
        x = paddle.to_tensor([g], dtype='float32')
        (a(x).sum() + b(x).sum()).backward()
        opt.step()
        opt.clear_grad()
    _close(_weights(a), _want(_adamax(0.1, 0.9, 0.999, 1e-8)))
    _close(_weights(b), _want(_adamax(0.05, 0.5, 0.999, 1e-8)))


def test_adamw_apply_decay_param_fun_and_lamb_exclusion():
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(paddle.to_tensor([[1.0], [2.0]]))
    lin.bias.set_value(paddle.to_tensor([3.0]))
    bias_name = lin.bias.name
    opt = paddle.optimizer.AdamW(learning_rate=0.1, weight_decay=0.5, parameters=lin.parameters(),
                                 apply_decay_param_fun=lambda n: n != bias_name)
    (lin(paddle.to_tensor([[0.0, 0.0]])) * 0).sum().backward()   # zero gradients: only decay moves
    opt.step()
    _close([r[0] for r in lin.weight.tolist()], [0.95, 1.9])
    _close(lin.bias.tolist(), [3.0])

    x, y = _lin([1.5, -2.0], 'lamb_x'), _lin([1.5, -2.0], 'lamb_y')
    opt = paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.3, parameters=x.parameters() + y.parameters(),
                                exclude_from_weight_decay_fn=lambda p: p.name == 'lamb_y')
    g = paddle.to_tensor([[0.3, -1.2]])
    (x(g).sum() + y(g).sum()).backward()
    opt.step()
    _close(_weights(x), _want(_lamb(0.05, 0.3), [1.5, -2.0], [[0.3, -1.2]]))
    _close(_weights(y), _want(_lamb(0.05, 0.0), [1.5, -2.0], [[0.3, -1.2]]))


def test_state_dict_round_trips():
    for kind, keys, make in (
        ('Adadelta', ('__avg_squared_grad_0', '__avg_squared_update_0'), lambda ps: paddle.optimizer.Adadelta(0.5, parameters=ps)),
        ('Adamax', ('_moment_0', '_inf_norm_0'), lambda ps: paddle.optimizer.Adamax(0.1, parameters=ps)),
        ('Lamb', ('_moment1_0', '_moment2_0'), lambda ps: paddle.optimizer.Lamb(0.1, parameters=ps)),
    ):
        name = 'w_rt_' + kind
        a, b = _lin(P0, name), _lin(P0, name)
        oa = make(a.parameters())
        for g in GS[:2]:
            a(paddle.to_tensor([g])).sum().backward()
            oa.step()
            oa.clear_grad()
        sd = oa.state_dict()
        assert sorted(sd) == sorted(['@step'] + [name + k for k in keys]), (kind, sorted(sd))
        ob = make(b.parameters())
        ob.set_state_dict(sd)
        b.weight.set_value(a.weight)
        for lin, o in ((a, oa), (b, ob)):
            lin(paddle.to_tensor([GS[2]])).sum().backward()
            o.step()
        _close(_weights(b), _weights(a), 1e-7)


def test_errors():
    lin = paddle.nn.Linear(2, 1)
    for make, word in (
        (lambda: paddle.optimizer.Adamax(beta1=1.0, parameters=lin.parameters()), 'beta1'),
        (lambda: paddle.optimizer.Lamb(beta2=-0.5, parameters=lin.parameters()), 'beta2'),
        (lambda: paddle.optimizer.Lamb(exclude_from_weight_decay_fn=3, parameters=lin.parameters()), 'exclude_from_weight_decay_fn'),
        (lambda: paddle.optimizer.Adadelta(rho=None, parameters=lin.parameters()), 'rho'),
        (lambda: paddle.optimizer.Adadelta(rho=1.5, parameters=lin.parameters()), 'rho'),
        (lambda: paddle.optimizer.Adadelta(), 'should not be None'),
    ):
        try:
            make()
        except Exception as e:  # noqa: BLE001
            assert word in str(e), (word, str(e))
        else:
            raise AssertionError('no error for %s' % word)

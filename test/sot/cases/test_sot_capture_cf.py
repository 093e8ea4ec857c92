"""Control-flow capture: branches on tensor values in marked code (and in sublayers' forward)
become `if` nodes of one graph. Every case: translated == eager for inputs taking every branch,
one translation across branch outcomes, no breaks, the graph holds the control-flow op;
gradients equal eager's; what cannot be captured exactly breaks with its code and eager's result."""
import json

import _skiff_sot
import paddle
import paddle.nn as nn
from sot_check import assert_breaks, assert_no_breaks, count, explain, same, t

capture = paddle.jit.marker.capture_control_flow

P = t([[1.0, -2.0], [3.0, 0.5]])   # sum > 0, mean > 0
N = -P                             # sum < 0
B = P * 10                         # mean > 1
Z = t([[1.0, -1.0], [2.0, -2.0]])  # sum == 0


def ops_of(sf):
    return [name for g in explain(sf)['opNames'] for name in g]


def check_captured(fn, argsets, op='if'):
    """fn translated == eager on each argument tuple, with one translation, no breaks and `op` in the graph."""
    sf = paddle.jit.to_static(fn)
    for args in argsets:
        same(sf(*args), fn(*args))
    assert count(sf) == 1, 'translations: %d' % count(sf)
    assert_no_breaks(sf)
    assert op in ops_of(sf), 'no %s op in %s' % (op, explain(sf)['opNames'])
    return sf


# ---- what is captured (table: name, function, argument tuples) --------------------------------

@capture
def if_else(x):
    y = x * 2
    if y.sum() > 0:
        z = y + 1
    else:
        z = y - 1
    return z * 3


@capture
def elif_chain(x):
    m = x.mean()
    if m > 1:
        r = x * 100
    elif m > 0:
        r = x + 10
    elif m > -1:
        r = x - 10
    else:
        r = x * 0
    return r


@capture
def nested(x, y):
    if x.sum() > 0:
        if y.sum() > 0:
            out = x + y
        else:
            out = x - y
    else:
        out = x * y
    return out.exp()


@capture
def no_else_rebinds(x):
    y = x + 1
    if x.max() > 2:
        y = y * 2           # rebinds a variable bound before the branch
    tmp = y - 1             # tmp only after the merge
    return tmp


@capture
def one_sided_dead_temp(x):
    if x.sum() > 0:
        t1 = x * 3          # bound on one side only but never read after the branch
        y = t1 + 1
    else:
        y = x
    return y


@capture
def ternary(x):
    return (x * 2) if x.sum() > 0 else (x - 5)


@capture
def early_return(x):
    if x.sum() > 0:
        return x * 2
    y = x + 1
    return y * 3


@capture
def numeric_condition(x):
    if (x > 0).astype('int32').sum():   # bool() of an int tensor: != 0
        return x + 1
    return x - 1


@capture
def python_values_agree(x, k):
    s = k * 2                # a Python value equal on both sides is kept as is
    if x.sum() > 0:
        y = x + s
        tag = 'same'
    else:
        y = x - s
        tag = 'same'
    return y, tag


@capture
def tuple_result(x):
    if x.mean() > 0:
        a, b = x + 1, x * 2
    else:
        a, b = x - 1, x / 2
    pair = (a, b)
    return pair[0] + pair[1]


@capture
def condition_in_python_loop(x):
    acc = x
    for i in range(3):
        if acc.sum() > 0:
            acc = acc - 2
        else:
            acc = acc + 1
    return acc


@capture
def while_counter(x, n):
    i = paddle.zeros([], 'int64')
    s = x
    while i < n:
        s = s * 2 + 1
        i = i + 1
    return s, i


@capture
def while_converge(x):
    while x.abs().sum() > 1:
        x = x / 2
    return x


@capture
def while_with_branch(x):
    k = paddle.zeros([], 'float32')
    while x.abs().sum() > 1:
        if x.sum() > 0:
            x = x / 2
        else:
            x = x / 3
        tmp = k + 1          # a body temporary, dead after the loop
        k = tmp
    return x, k


@capture
def while_continue(x):
    k = paddle.zeros([], 'float32')
    while x.abs().sum() > 1:
        x = x / 2
        k = k + 1
        if x.sum() > 2:
            continue         # a continue under a tensor condition: both sides end at the loop test
        x = x - 0.01
    return x, k


@capture
def while_not(x):
    while not (x.abs().sum() < 1):   # the body runs on the false side of the jump
        x = x / 2
    return x


@capture
def for_range_tensor(x, n):
    acc = x
    for _ in range(n):
        acc = acc * 2 + 1
    return acc


@capture
def for_range_with_branch(x, n):
    s = paddle.zeros([], 'float32')
    for _ in range(n):
        x = x - 1
        if x.sum() > 3:
            s = s + 1
        else:
            s = s - 1
    return s * x


CAPTURED_LOOPS = [
    ('while_counter', while_counter, [(P, t(3, 'int64')), (P, t(0, 'int64')), (N, t(5, 'int64'))]),
    ('while_converge', while_converge, [(P,), (P * 100,), (P * 0.01,)]),
    ('while_with_branch', while_with_branch, [(P,), (N * 100,), (P * 0.01,)]),
    ('while_continue', while_continue, [(P,), (P * 100,), (P * 0.01,), (N * 50,)]),
    ('while_not', while_not, [(P,), (P * 0.01,)]),
    ('for_range_tensor', for_range_tensor, [(P, t(3, 'int64')), (P, t(0, 'int64')), (N, t(2, 'int64'))]),
    ('for_range_tensor_int32', for_range_tensor, [(P, t([2], 'int32')), (N, t([-1], 'int32'))]),
    ('for_range_with_branch', for_range_with_branch, [(P, t(3, 'int64')), (P, t(0, 'int64')), (P * 3, t(6, 'int64'))]),
]


def test_captured_loops():
    for name, fn, argsets in CAPTURED_LOOPS:
        try:
            check_captured(fn, argsets, 'while')
        except AssertionError as e:
            raise AssertionError('%s: %s' % (name, e))


CAPTURED = [
    ('if_else', if_else, [(P,), (N,), (P,)]),
    ('elif_chain', elif_chain, [(B,), (P,), (N * 0.1,), (N * 10,)]),
    ('nested', nested, [(P, P), (P, N), (N, P), (N, N)]),
    ('no_else_rebinds', no_else_rebinds, [(P,), (N,)]),
    ('one_sided_dead_temp', one_sided_dead_temp, [(P,), (N,)]),
    ('ternary', ternary, [(P,), (N,)]),
    ('early_return', early_return, [(P,), (N,), (Z,)]),
    ('numeric_condition', numeric_condition, [(P,), (-paddle.abs(P),)]),
    ('python_values_agree', python_values_agree, [(P, 2), (N, 2)]),
    ('tuple_result', tuple_result, [(P,), (N,)]),
    ('condition_in_python_loop', condition_in_python_loop, [(P,), (N,), (Z,)]),
]


def test_captured_cases():
    for name, fn, argsets in CAPTURED:
        try:
            check_captured(fn, argsets)
        except AssertionError as e:
            raise AssertionError('%s: %s' % (name, e))


def test_unmarked_function_still_breaks():
    def f(x):
        if x.sum() > 0:
            return x + 1
        return x - 1
    sf = paddle.jit.to_static(f)
    for a in (P, N):
        same(sf(a), f(a))
    assert_breaks(sf, 'SOT001')


# ---- Layers ------------------------------------------------------------------------------------

class Gate(nn.Layer):
    """Branches on x.mean() > 0: captured automatically when called as a sublayer."""
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2)
        self.b = nn.Linear(2, 2)

    def forward(self, x):
        if x.mean() > 0:
            h = self.a(x)
        else:
            h = self.b(x) * 2
        return h


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.gate = Gate()
        self.out = nn.Linear(2, 1)

    def forward(self, x):
        return self.out(paddle.tanh(self.gate(x)))


@capture
class MarkedGate(Gate):
    pass


def _twin(cls):
    a, b = cls(), cls()
    b.set_state_dict(a.state_dict())
    return a, b


def test_sublayer_forward_is_captured_automatically():
    eager, layer = _twin(Net)
    sf = paddle.jit.to_static(layer)
    for a in (P, N, P):
        same(sf(a), eager(a))
    e = explain(sf.forward)
    assert e['translations'] == 1 and not e['breaks'], e
    assert 'if' in [n for g in e['opNames'] for n in g]


def test_marked_layer_class_is_captured():
    eager, layer = _twin(MarkedGate)
    sf = paddle.jit.to_static(layer)
    for a in (P, N):
        same(sf(a), eager(a))
    e = explain(sf.forward)
    assert e['translations'] == 1 and not e['breaks'], e
    assert 'if' in [n for g in e['opNames'] for n in g]


# ---- gradients ---------------------------------------------------------------------------------

def test_gradients_through_if_equal_eager():
    counters = lambda: json.loads(_skiff_sot.training_counters())
    for fn in (if_else, nested, early_return):
        sf = paddle.jit.to_static(fn)
        for args in ((P, N), (N, P), (P, P)):
            args = args[:fn.__code__.co_argcount]
            got, want = [], []
            for f, out in ((sf, got), (fn, want)):
                xs = [a.clone() for a in args]
                for x in xs:
                    x.stop_gradient = False
                before = counters()['backwardRuns']
                loss = (f(*xs) ** 2).sum()
                loss.backward()
                out.extend([x.grad for x in xs])
                if f is sf:
                    assert counters()['backwardRuns'] == before + 1, 'backward did not run as a program'
            same(got, want)
        assert count(sf) == 1


def test_gradients_through_while_equal_eager():
    def run(f, a, w):
        x, wt = a.clone(), w.clone()
        x.stop_gradient = False
        wt.stop_gradient = False
        loss = (f(x, wt) ** 2).sum()
        return paddle.grad([loss], [x, wt], allow_unused=True)   # w is unused when the loop never runs

    @capture
    def f(x, w):
        i = paddle.zeros([], 'int64')
        while x.abs().sum() < 50:
            x = x * w + 1
            i = i + 1
        return x * i.astype('float32')

    sf = paddle.jit.to_static(f)
    w = t([[1.5, 2.0], [2.0, 1.5]])
    for a in (P, P * 0.1, P * 100):
        same(run(sf, a, w), run(f, a, w))
    assert count(sf) == 1
    assert 'while' in ops_of(sf)


def test_gradients_through_for_range_equal_eager():
    @capture
    def f(x, w, n):
        for _ in range(n):
            x = paddle.tanh(x @ w)
        return x

    sf = paddle.jit.to_static(f)
    w0 = t([[0.5, -1.0], [1.5, 0.25]])
    for k in (3, 0, 2):
        got, want = [], []
        for fn, out in ((sf, got), (f, want)):
            x, w = P.clone(), w0.clone()
            x.stop_gradient = False
            w.stop_gradient = False
            (fn(x, w, t(k, 'int64')) ** 2).sum().backward()
            out.extend([x.grad, w.grad])
        same(got, want)
    assert count(sf) == 1
    assert 'while' in ops_of(sf)


def test_layer_parameter_gradients_through_if_equal_eager():
    eager, layer = _twin(Net)
    sf = paddle.jit.to_static(layer)
    for a in (P, N):
        for m in (eager, sf):
            m(a).sum().backward()
        same([p.grad for p in layer.parameters()], [p.grad for p in eager.parameters()])
        eager.clear_gradients()
        layer.clear_gradients()
    assert count(sf.forward) == 1


# ---- refusals: a documented code, and eager's result -------------------------------------------

LOG = []
G = {'n': 0}


@capture
def one_sided_used_after(x):
    if x.sum() > 0:
        z = x + 1
    return z * 2


@capture
def none_vs_tensor(x):
    z = None
    if x.sum() > 0:
        z = x + 1
    return z


@capture
def shapes_differ(x):
    if x.sum() > 0:
        y = x.sum()
    else:
        y = x
    return y


@capture
def dtypes_differ(x):
    if x.sum() > 0:
        y = x.astype('float64')
    else:
        y = x
    return y


@capture
def python_values_differ(x):
    if x.sum() > 0:
        k = 1
    else:
        k = 2
    return x * k, k          # the int escapes: it cannot be a tensor output


@capture
def appends_to_list(x):
    if x.sum() > 0:
        LOG.append(1)
    return x + 1


@capture
def prints(x):
    if x.sum() > 0:
        print('positive')
    return x + 1


@capture
def breaks_inside(x):
    if x.sum() > 0:
        x = x + float(x.max())
    return x


@capture
def multi_element_condition(x):
    if x > 0:       # eager raises: the condition is not one element
        return x
    return -x


@capture
def while_break(x):
    while x.abs().sum() > 1:
        x = x / 2
        if x.sum() > 100:
            break
    return x


@capture
def while_python_counter(x):
    n = 0
    while x.abs().sum() > 1:
        x = x / 2
        n += 1               # a Python int changing per iteration cannot be loop-carried
    return x, n


@capture
def while_shape_grows(x):
    while x.sum() < 10:
        x = paddle.concat([x, x])
    return x


@capture
def for_range_reads_index(x, n):
    for i in range(n):
        x = x + i            # eager adds Python ints
    return x


REFUSED = [
    ('one_sided_used_after', one_sided_used_after, [(P,)], 'SOT013'),
    ('none_vs_tensor', none_vs_tensor, [(P,), (N,)], 'SOT013'),
    ('shapes_differ', shapes_differ, [(P,), (N,)], 'SOT014'),
    ('dtypes_differ', dtypes_differ, [(P,), (N,)], 'SOT014'),
    ('python_values_differ', python_values_differ, [(P,), (N,)], 'SOT013'),
    ('appends_to_list', appends_to_list, [(P,), (N,)], 'SOT015'),
    ('prints', prints, [(P,), (N,)], 'SOT015'),
    ('breaks_inside', breaks_inside, [(P,), (N,)], 'SOT016'),
    ('while_break', while_break, [(P,), (P * 1000,)], 'SOT016'),
    ('while_python_counter', while_python_counter, [(P,), (P * 0.01,)], 'SOT013'),
    ('while_shape_grows', while_shape_grows, [(P,)], 'SOT014'),
    ('for_range_reads_index', for_range_reads_index, [(P, t(2, 'int64'))], 'SOT016'),
]


def test_refusals_break_with_their_code_and_eager_results():
    for name, fn, argsets, code in REFUSED:
        sf = paddle.jit.to_static(fn)
        for args in argsets:
            n = len(LOG)
            want = fn(*args)
            grew = len(LOG) - n
            got = sf(*args)
            same(got, want, name)
            assert len(LOG) - n == 2 * grew, '%s: side effect ran %d times' % (name, len(LOG) - n - grew)
        assert_breaks(sf, code)


def test_multi_element_condition_raises_like_eager():
    sf = paddle.jit.to_static(multi_element_condition)
    msgs = []
    for f in (multi_element_condition, sf):
        try:
            f(P)
        except Exception as e:
            msgs.append((type(e), str(e)))
    assert len(msgs) == 2 and msgs[0] == msgs[1], msgs


def test_marker_rejects_other_objects():
    try:
        capture(3)
    except TypeError as e:
        assert 'capture_control_flow' in str(e)
    else:
        raise AssertionError('no TypeError')

"""Translator: an opcode corpus. Every opcode CPython can emit in a function body is executed by
at least one snippet below, on every Python version (checked by test_opcode_coverage against
the running interpreter's dis.opmap). Snippets marked 'sot' are translated and compared with
eager (try/except/with included); snippets with generators, async, except*, match or class
bodies run as plain Python from their start (explain() says why: SOT106 or SOT101) and still
give eager's answers."""
import dis
import sys

import paddle
from sot_check import check, explain, same, t
import sot_opcode_snippets_future as future_snippets

if sys.version_info >= (3, 11):   # `except*` does not parse on 3.10
    from sot_opcode_snippets_311 import SNIPPETS as _EXCEPT_STAR_SNIPPETS
else:
    _EXCEPT_STAR_SNIPPETS = []
if sys.version_info >= (3, 12):   # `def f[T]` and `type X = ...` (PEP 695) do not parse before 3.12
    from sot_opcode_snippets_312 import SNIPPETS as _PEP695_SNIPPETS
else:
    _PEP695_SNIPPETS = []

X = t([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])
V = t([1.0, 2.0, 3.0])

SNIPPETS = []   # (fn, argsets, mode, reason code or None, driver)


def snippet(*argsets, mode='sot', code=None, driver=None):
    def deco(fn):
        SNIPPETS.append((fn, argsets, mode, code, driver))
        return fn
    return deco


def drain(gen):
    return list(gen)


def run_coro(coro):
    """Drives a coroutine that never really suspends (no event loop needed)."""
    try:
        while True:
            coro.send(None)
    except StopIteration as e:
        return e.value


# ---- operators ---------------------------------------------------------------------------------
@snippet((X, 3, 5), (X, -2, 0))
def op_unary_binary(x, a, b):
    c = -a + (~b) + (+a)
    d = not a
    e = (a is None, a is not b, a in (1, 2, 3), a not in [3], b in {0, 5})
    f = a < b, a <= b, a == b, a != b, a > b, a >= b
    g = a + b, a - b, a * b, a / 4, a // 3, a % 3, a ** 2, a << 1, a >> 1, a & b, a | b, a ^ b
    h = a
    h += 1
    h *= 2
    h -= b
    return x * c + a, d, e, f, g, h, -x, +x


@snippet((X,))
def op_tensor_compare(x):
    y = x @ x.T
    return x < 1, x >= 0, 2 < x, x == x, x != 0, y * 2


# ---- loads and stores --------------------------------------------------------------------------
@snippet((X, True), (X, False))
def ls_locals(x, flag):
    if flag:
        y = x + 1
    tmp = 3
    del tmp
    a = b = 2
    a, b = b + 1, a
    if flag:
        return y * a * b
    return x


G_TMP = 0
G_READ = 2.5


@snippet((X,))
def ls_globals(x):
    global G_TMP
    G_TMP = 3
    y = x * G_TMP * G_READ
    del G_TMP
    G_TMP = 0
    return y


@snippet((X, 2), (X, 3))
def ls_closure(x, k):
    scale = k

    def inner(y, b=1, *, c=2) -> float:
        nonlocal scale
        scale = scale + b + c
        return y * scale
    r = inner(x)
    tmp = 1

    def g():
        return tmp
    r2 = g()
    del tmp
    return r, scale, r2


class Box:
    pass


@snippet((X, Box()))
def ls_attrs(x, box):
    box.v = x * 2
    y = box.v + 1
    box.tmp = 1
    del box.tmp
    return y, hasattr(box, 'tmp')


# ---- subscripts and slices ---------------------------------------------------------------------
@snippet((X, [1, 2, 3, 4], {'a': 1, 'b': 2}, 1, 3))
def sub_lists_dicts(x, lst, d, i, j):
    a = lst[0] + lst[-1]
    b = lst[i:j]
    c = lst[::2], lst[i::j], lst[1:3]
    lst2 = list(lst)
    lst2[0] = 9
    lst2[i:i + 1] = [7, 7]
    del lst2[0]
    d2 = dict(d)
    del d2['a']
    d2['c'] = 3
    return x * a, b, c, lst2, d2


@snippet((X,))
def sub_tensor(x):
    return x[0], x[:, 1:3], x[..., None], x[1, ::2], x[-1], x[:, -1]


# ---- containers ------------------------------------------------------------------------------
@snippet((X, 1, 2))
def cont_build(x, a, b):
    tup = (a, b)
    lst = [a, b, 3, 4, 5]
    d = {'p': a, 'q': b}
    d2 = {a: 1, b: 2}
    s = {a, b}
    s2 = {*tup, 7}
    lst2 = [*tup, *lst]
    tup2 = (*lst, *tup)
    d3 = {**d, 'r': 3}
    d4 = dict(**d, **{'z': 1})
    return x * len(s), tup, lst, d, d2, sorted(s2), lst2, tup2, d3, d4, a in s


@snippet((X, [1, 2, 3]))
def cont_comprehensions(x, xs):
    sq = [v * v for v in xs]
    ev = {v for v in xs if v % 2}
    dd = {v: v + 1 for v in xs}
    nested = [[i * j for j in range(2)] for i in xs]
    return x * sum(sq), sorted(ev), dd, nested


@snippet((X, (1, 2, 3, 4)), (X, [5, 6, 7]))
def cont_unpack(x, seq):
    a, b, *rest = seq
    *init, last = seq
    first, *mid, end = seq
    (p, q), r = (a, b), last
    return x * a + b, rest, init, last, mid, end, p, q, r


@snippet((X, 'ab', 7, 2.5))
def cont_strings(x, name, n, f):
    s = f'{name}-{n:03d}-{n!r}-{f!s}-{name!a}-{f:.2f}'
    return x * len(s), s, name * 2, '%s/%d' % (name, n)


# ---- calls ------------------------------------------------------------------------------------
def kw_target(a, b=2, *args, c=3, **kw):
    return a + b + c + sum(args) + len(kw)


@snippet((X,))
def call_forms(x):
    args = (1, 2)
    kw = {'c': 4, 'z': 5}
    r1 = kw_target(1, b=3)
    r2 = kw_target(*args, c=5)
    r3 = kw_target(*args, **kw)
    r4 = kw_target(1, *args, *args)
    r5 = paddle.sum(x, axis=1, keepdim=True)
    return r1, r2, r3, r4, r5


@snippet((X, 3))
def call_import(x, n):
    import math
    from math import sqrt
    return x * math.pi + sqrt(n)


# ---- control flow ---------------------------------------------------------------------------
@snippet((X, 3, None), (X, 0, 1))
def flow_branches_loops(x, n, opt):
    acc = x
    for i in range(n):
        if i == 1:
            continue
        acc = acc + i
        if i > 5:
            break
    k = 0
    while k < n:
        k += 1
    if opt is None:
        acc = acc * 2
    if opt is not None:
        acc = acc - opt
    v = n if n else -1
    return acc, k, v, n and opt, n or opt


@snippet((X, 3), (X, 1))
def flow_assert(x, n):
    assert n > 0, 'n must be positive'
    if n > 100:
        raise ValueError('too big')
    return x * n


def _long_function():
    """A function whose constants and jumps need EXTENDED_ARG (built from source text here,
    in the test only, because writing 300 distinct constants by hand is not useful)."""
    body = ', '.join('x + %d.5' % i for i in range(300))
    src = 'def op_extended_arg(x):\n    return [%s]\n' % body
    ns = {}
    exec(compile(src, __file__, 'exec'), ns)
    return ns['op_extended_arg']


SNIPPETS.append((_long_function(), ((V,),), 'sot', None, None))


# ---- super ------------------------------------------------------------------------------------
class Base:
    def __init__(self):
        self.k = 2.0

    def f(self, x):
        return x * self.k


class Derived(Base):
    def f(self, x):
        return super().f(x) + super(Derived, self).f(x) + 1


DERIVED = Derived()
snippet((DERIVED, X))(Derived.f)


@snippet((X,))
def call_super(x):
    return DERIVED.f(x)


# ---- what runs as plain Python from its start ---------------------------------------------
@snippet((3,), mode='eager', code='SOT106', driver=drain)
def gen_simple(n):
    for i in range(n):
        yield i * 2
    yield from range(n)
    return n


@snippet((3,), mode='eager', code='SOT106', driver=drain)
def gen_send(n):
    got = yield n
    while got is not None:
        got = yield got * 2


@snippet((X, 3), mode='sot')
def gen_expression(x, n):
    return x * sum(i for i in range(n)), tuple(v * 2 for v in range(n)), all(v < n for v in range(n))


class _Awaitable:
    def __await__(self):
        return iter(())


class _AsyncIter:
    def __init__(self, n):
        self.i, self.n = 0, n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i


class _AsyncCtx:
    async def __aenter__(self):
        return 10

    async def __aexit__(self, *exc):
        return False


@snippet((3,), mode='eager', code='SOT106', driver=run_coro)
async def async_all(n):
    await _Awaitable()
    total = 0
    async for v in _AsyncIter(n):
        total += v
    async with _AsyncCtx() as c:
        total += c
    return total


async def _agen(n):
    for i in range(n):
        yield i


@snippet((3,), mode='eager', code='SOT106', driver=run_coro)
async def async_comprehension(n):
    return [v async for v in _agen(n)]


@snippet((X, 0), (X, 1), (X, 2), (X, 1), (X, 0))
def exc_try(x, k):
    try:
        if k == 1:
            raise KeyError('k')
        if k == 2:
            raise ValueError('v') from None
        r = x + 1
    except KeyError as e:
        r = x * 2 + len(str(e))
    except (TypeError, ValueError):
        r = x * 3
    else:
        r = r * 10
    finally:
        r = r - 1
    return r


class _Ctx:
    def __enter__(self):
        return 5

    def __exit__(self, *a):
        return False


@snippet((X,), (X,))
def exc_with(x):
    with _Ctx() as c:
        y = x * c
    with paddle.no_grad():
        y = y + 1
    return y


# except* (3.11+ syntax) is in sot_opcode_snippets_311.py.
SNIPPETS.extend(_EXCEPT_STAR_SNIPPETS)


class Point:
    __match_args__ = ('px', 'py')

    def __init__(self, px, py):
        self.px, self.py = px, py


@snippet(([1, 2, 3],), ({'k': 5},), (Point(1, 2),), (7,), mode='eager', code='SOT101')
def match_all(v):
    match v:
        case [a, b, *rest]:
            return a + b + len(rest)
        case {'k': val}:
            return val
        case Point(px=p, py=q):
            return p * q
        case Point(p, q):
            return p + q
        case _:
            return -1


# Class bodies with PEP 695 generics and generic functions (3.12+ syntax) live in their own module.
SNIPPETS.extend(_PEP695_SNIPPETS)


# ---- forms whose opcodes only 3.10 / 3.11 have ------------------------------------------------
@snippet((7, 2.0), (-3, 0.5))
def op_inplace_each(n, f):
    # 3.10 has one INPLACE_* opcode per operator
    n &= 7
    n //= 2
    n <<= 3
    n %= 5
    n |= 8
    n **= 2
    n >>= 1
    n ^= 3
    f /= 2
    return n, f


@snippet((X,))
def op_inplace_matmul_and_subscript(x):
    y = x
    y @= x.T
    box = [x, 1]
    box[0] += x   # DUP_TOP_TWO on 3.10
    box[1] *= 3
    return y, box


@snippet((3,), (1,))
def flow_while_is_none(n):
    v = None
    k = 0
    while v is None:   # 3.11: POP_JUMP_BACKWARD_IF_NONE closes the loop
        k += 1
        if k >= n:
            v = k * 10
    return v


@snippet((3,), mode='eager', code='SOT101')
def class_body_plain(n):
    outer = n * 2

    class C:
        a = 1
        c = outer   # LOAD_CLASSDEREF before 3.12
        tmp = 5
        del tmp     # DELETE_NAME
    return C.a + C.c


@snippet(({'k': 1, 'j': 2},), ((1, 5),), ((5, 1),), ([1, 2, 3, 4],), ({'x': [4, 3, 2, 1]},), (0,), mode='eager', code='SOT101')
def match_rest_and_or(v):
    match v:
        case {'k': val, **rest}:   # COPY_DICT_WITHOUT_KEYS on 3.10
            return val + len(rest)
        case (a, 1) | (1, a):      # an or-pattern binding a name
            return a
        case {'x': [p, q, r, s]} | [p, q, r, s]:   # or-patterns reorder 4 captures (ROT_N on 3.10)
            return p + q * r - s
        case _:
            return -1


@snippet((3,), mode='eager', code='SOT106', driver=run_coro)
async def async_gen_nested(n):
    async def agen():   # ASYNC_GEN_WRAP on 3.11
        yield n
        yield n + 1
    return [v async for v in agen()]


# ---- the tests ---------------------------------------------------------------------------------
def _call(fn, args, driver):
    r = fn(*args)
    return driver(r) if driver else r


def test_translated_snippets():
    for fn, argsets, mode, code, _ in SNIPPETS:
        if mode != 'sot':
            continue
        try:
            check(fn, *argsets)
        except AssertionError as e:
            raise AssertionError('%s: %s' % (fn.__name__, e)) from None


def test_eager_snippets():
    for fn, argsets, mode, code, driver in SNIPPETS + future_snippets.SNIPPETS:
        if mode != 'eager':
            continue
        sf = paddle.jit.to_static(fn)
        for args in argsets:
            same(_call(sf, args, driver), _call(fn, args, driver), fn.__name__)
        e = explain(sf)
        assert e.get('eager'), '%s was translated: %s' % (fn.__name__, e)
        assert code in e.get('eagerReason', ''), '%s: eager for %r, expected %s' % (fn.__name__, e.get('eagerReason'), code)


def test_raising_snippets_raise_the_same():
    sf = paddle.jit.to_static(flow_assert)
    for n, exc in ((0, AssertionError), (200, ValueError)):
        try:
            flow_assert(X, n)
        except exc as e:
            want = str(e)
        try:
            sf(X, n)
        except exc as e:
            assert str(e) == want, (str(e), want)
            tb = e.__traceback__
            lines = []
            while tb is not None:
                lines.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
                tb = tb.tb_next
            assert any(f == __file__ for f, _ in lines), lines
        else:
            raise AssertionError('no %s raised for n=%d' % (exc.__name__, n))


# Opcodes that cannot appear in a function's bytecode as dis shows it, per version:
# inline cache entries, the reserved slot, the interpreter's own trampolines, instrumented and
# executor forms (only in adaptive code, never in co_code), pseudo-ops (numbered >= 256, they
# exist only in the compiler), and module-level-only intrinsics.
_NEVER = {'CACHE', 'RESERVED', 'INTERPRETER_EXIT', 'ENTER_EXECUTOR'}
EXCLUDED = {
    # IMPORT_STAR is module-level only (a SyntaxError in a function), PRINT_EXPR interactive only.
    (3, 10): _NEVER | {'IMPORT_STAR', 'PRINT_EXPR'},
    (3, 11): _NEVER | {'IMPORT_STAR', 'PRINT_EXPR'},
    (3, 12): _NEVER,
    # EXIT_INIT_CHECK is only in the interpreter's internal __init__ shim code.
    (3, 13): _NEVER | {'EXIT_INIT_CHECK'},
    (3, 14): _NEVER | {'EXIT_INIT_CHECK'},
}


def _code_objects(fn):
    out = []
    stack = [fn.__code__]
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(k for k in c.co_consts if hasattr(k, 'co_code'))
    return out


def _opnames(fn):
    names = set()
    for c in _code_objects(fn):
        for ins in dis.get_instructions(c):
            names.add(ins.opname)
    return names


def test_opcode_coverage():
    used = set()
    for fn, *_ in SNIPPETS + future_snippets.SNIPPETS:
        used |= _opnames(fn)
    excluded = EXCLUDED[sys.version_info[:2]]
    real = {n for n, op in dis.opmap.items() if op < 256 and not n.startswith('INSTRUMENTED_')}
    missing = sorted(real - excluded - used)
    assert not missing, 'opcodes no snippet executes on %d.%d: %s' % (sys.version_info[:2] + (missing,))
    stray = sorted(excluded & used)
    assert not stray, 'excluded opcodes that do appear: %s' % stray

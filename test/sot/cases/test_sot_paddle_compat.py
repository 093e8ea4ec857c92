"""Translator: Paddle's translator surface (paddle.jit.sot.psdb, utils flags and guards,
OpcodeExecutorCache, symbolic_translate) and the translator gaps Paddle's own test/sot files
showed (scripts/paddle_sot_suite.ts): identity in list/tuple index/count, Enum['NAME'], calling
objects with a Python __call__, hasattr on tensors, sets of builtin types, fallback after a break."""
import enum

import paddle
from paddle.jit import sot
from paddle.jit.sot import psdb, symbolic_translate
from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache
from paddle.jit.sot.utils import ENV_MIN_GRAPH_SIZE, ENV_STRICT_MODE, InnerError, min_graph_size_guard, strict_mode_guard
from paddle.jit.sot.utils.paddle_api_config import add_break_graph_apis
from sot_check import assert_breaks, assert_no_breaks, check, explain, t

X = t([1.0, 2.0])


def _raises(exc, fn, *args, match=''):
    try:
        fn(*args)
    except exc as e:
        assert match in str(e), '%r does not mention %r' % (str(e), match)
        return e
    raise AssertionError('%s was not raised' % exc.__name__)


def test_psdb_breakgraph_splits_and_in_sot_is_true():
    def f(x):
        y = x + 1
        psdb.breakgraph()
        return y * 2

    def g(x):
        return x + 1, psdb.in_sot()
    sf = check(f, (X,))
    assert_breaks(sf, 'SOT020')
    assert g(X)[1] is False   # eagerly
    sg = paddle.jit.to_static(g)
    assert sg(X)[1] is True
    assert_no_breaks(sg)


def test_psdb_fallback_runs_eagerly_and_after_a_break_goes_on():
    def f(x):
        psdb.fallback(recursive=True)
        return x + 1

    def g(x):
        y = x + 1
        psdb.breakgraph()
        psdb.fallback()
        return y * 3
    sf = check(f, (X,), allow_eager=True)
    assert explain(sf)['eager'] and 'SOT120' in explain(sf)['eagerReason']
    sg = check(g, (X,), (X,))
    assert_breaks(sg, 'SOT020', 'SOT020')


def test_check_no_breakgraph_refuses_breaks_but_not_user_exceptions():
    @psdb.check_no_breakgraph
    def breaks(x):
        print('')
        return x + 1

    @psdb.check_no_breakgraph
    def key_error(x):
        return {1: x}[2]

    @psdb.check_no_breakgraph
    def fine(x):
        return x * 2
    _raises(InnerError, symbolic_translate(breaks), X, match='should not break the graph')
    _raises(KeyError, symbolic_translate(key_error), X, match='2')
    assert_no_breaks(check(fine, (X,)))


def test_check_no_fallback_refuses_a_fallback():
    @psdb.check_no_fallback
    def f(x):
        psdb.fallback()
        return x
    _raises(InnerError, symbolic_translate(f), X, match='should not fall back')
    _raises(InnerError, psdb.assert_true, False)
    assert psdb.assert_true(True) is None


def test_flags_and_guards_reach_the_translator():
    def f(x):
        print('')
        return x + 1
    before = ENV_MIN_GRAPH_SIZE.get()
    with min_graph_size_guard(3):
        assert ENV_MIN_GRAPH_SIZE.get() == 3
    assert ENV_MIN_GRAPH_SIZE.get() == before
    assert ENV_STRICT_MODE.get() is False
    with strict_mode_guard(True):
        _raises(RuntimeError, paddle.jit.to_static(f), X, match='STRICT_MODE')
    assert ENV_STRICT_MODE.get() is False

    @strict_mode_guard(True)
    def strict_now():
        return ENV_STRICT_MODE.get()
    assert strict_now() is True and ENV_STRICT_MODE.get() is False


def test_executor_cache_counts_and_clears_translations():
    def apply(fn, x):
        return fn(x)

    def one(x):
        return x + 1

    def two(x):
        return x - 1
    cache = OpcodeExecutorCache()
    assert cache is OpcodeExecutorCache()
    cache.clear()
    assert cache.translate_count == 0
    assert symbolic_translate(apply) is symbolic_translate(apply)   # one cache per function
    symbolic_translate(apply)(one, X)
    symbolic_translate(apply)(two, X)
    symbolic_translate(apply)(one, X)
    assert cache.translate_count == 2, cache.translate_count
    cache.clear()
    symbolic_translate(apply)(one, X)
    assert cache.translate_count == 1, cache.translate_count


def test_sequence_index_and_count_use_identity_first():
    @psdb.check_no_breakgraph
    def f(n, x):
        z = (x, n)
        w = [n, n, 2, 1]
        return z.index(x), (n, n, 1).count(n), w.count(n), w.index(2), [x, x].count(x), x + 1
    assert_no_breaks(check(f, (1, X), (2, X)))

    def g(a, b):
        return (a, b, a).count(b)   # a == b needs the tensors' values
    assert_breaks(check(g, (t([1.0]), t([2.0]))), 'SOT001')


class Color(enum.IntEnum):
    RED = 1
    BLUE = 2


def test_enum_subscript_by_name():
    @psdb.check_no_breakgraph
    def f(x, name):
        return Color[name], x + Color[name].value
    sf = check(f, (X, 'RED'), (X, 'BLUE'))
    assert type(sf(X, 'RED')[0]) is Color
    assert_no_breaks(sf)

    def g(name):
        return Color[name]
    _raises(KeyError, symbolic_translate(g), 'GREEN', match='GREEN')


def test_calling_an_object_runs_its_python_call():
    class Scale:
        def __init__(self, k):
            self.k = k

        def __call__(self, x, bias=0):
            return x * self.k + bias

    def f(fn, x):
        return fn(x, bias=1)
    sf = check(f, (Scale(2), X), (Scale(3), X))
    assert_no_breaks(sf)


def test_hasattr_and_getattr_of_tensor_attributes():
    def f(x):
        return hasattr(x, 'abs'), hasattr(x, 'dtype'), hasattr(x, 'no_such_attribute'), x.abs()
    assert_no_breaks(check(f, (X,)))

    def g(x):
        return x.no_such_attribute
    _raises(AttributeError, symbolic_translate(g), X, match='no_such_attribute')


def test_set_of_builtin_types():
    @psdb.check_no_breakgraph
    def f(x, items):
        kinds = set(map(type, items))
        return kinds <= {int, bool}, float in kinds, x + len(kinds)
    assert_no_breaks(check(f, (X, [1, True, 2]), (X, [1.5, 2])))


def test_break_graph_apis_and_skip_function():
    def helper(x):
        return x * 5

    def f(x):
        return helper(x) + 1
    add_break_graph_apis([helper])
    assert_breaks(check(f, (X,)), 'SOT020')

    def skipped(x):
        return x - 1
    def calls_skipped(x):
        return skipped(x) * 2
    sot.skip_function(skipped)
    assert paddle.jit.to_static(skipped) is skipped
    assert_breaks(check(calls_skipped, (X,)), 'SOT020')

"""Translator: differential fuzzing. Random functions from test/sot/fuzz/generator.py (source
text built and executed with Python's own exec here, in the test only) run eagerly and
translated on the same arguments; results with their types, exceptions, printed output and the
mutation of argument lists and dicts must be identical. Each function is called with two
argument sets and then the first again (a cached translation). Reports how many ops ran inside
graphs: the share of eager ops the translated calls did not have to run eagerly."""
import contextlib
import io
import linecache
import os
import random
import sys

import paddle
import _skiff_sot



def _fuzz_dir():
    """test/sot/fuzz inside Pyodide: the suite mounts only this directory (at its host path),
    so the sibling directory is mounted here the same way."""
    d = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fuzz'))
    if not os.path.isdir(d):
        import js
        import pyodide_js
        from pyodide.ffi import to_js
        pyodide_js.FS.mkdirTree(d)
        pyodide_js.FS.mount(pyodide_js.FS.filesystems.NODEFS, to_js({'root': d}, dict_converter=js.Object.fromEntries), d)
    return d


sys.path.insert(0, _fuzz_dir())
from generator import generate  # noqa: E402

SEED = int(os.environ.get('SOT_FUZZ_SEED', '20240611'))
CASES = int(os.environ.get('SOT_FUZZ_CASES', '300'))


def _args(rng):
    x = paddle.to_tensor([[rng.uniform(-2, 2) for _ in range(3)] for _ in range(2)], dtype='float32')
    y = paddle.to_tensor([[rng.uniform(-2, 2) for _ in range(3)] for _ in range(2)], dtype='float32')
    lst = [rng.randint(-3, 9) for _ in range(rng.randint(0, 4))]
    d = {'k0': rng.randint(0, 5), 'k1': rng.randint(-2, 2)}
    return (x, y, rng.randint(-3, 6), round(rng.uniform(-2, 2), 3), rng.random() < 0.5, lst, d)


def _copy(args):
    # tensors too: the functions may write them in place (x.add_(y), x[i] = v)
    x, y, n, r, flag, lst, d = args
    return (paddle.to_tensor(x), paddle.to_tensor(y), n, r, flag, list(lst), dict(d))


def _close(a, b):
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(p, q) for p, q in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        if a == b or (a != a and b != b):
            return True
        return abs(a - b) <= 1e-4 * (1 + abs(b))
    return a == b


def _same(a, b, path='result'):
    if isinstance(a, paddle.Tensor) or isinstance(b, paddle.Tensor):
        assert isinstance(a, paddle.Tensor) and isinstance(b, paddle.Tensor), '%s: %r vs %r' % (path, a, b)
        assert a.shape == b.shape and a.dtype == b.dtype, '%s: %s %s vs %s %s' % (path, a.shape, a.dtype, b.shape, b.dtype)
        assert _close(a.tolist(), b.tolist()), '%s: %r vs %r' % (path, a.tolist(), b.tolist())
        return
    assert type(a) is type(b), '%s: type %s vs %s' % (path, type(a).__name__, type(b).__name__)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), '%s: length %d vs %d' % (path, len(a), len(b))
        for i, (p, q) in enumerate(zip(a, b)):
            _same(p, q, '%s[%d]' % (path, i))
    elif isinstance(a, dict):
        assert list(a) == list(b), '%s: keys %r vs %r' % (path, list(a), list(b))
        for k in a:
            _same(a[k], b[k], '%s[%r]' % (path, k))
    else:
        assert _close(a, b), '%s: %r vs %r' % (path, a, b)


def _run(fn, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            r = ('ok', fn(*args))
        except Exception as e:  # noqa: BLE001 - compared with eager's
            r = ('raised', (type(e).__name__, str(e)))
    return r, out.getvalue()


def _report(msg):
    try:
        import js
        js.console.log(msg)
    except ImportError:
        print(msg)


def test_differential_fuzz():
    failures = []
    eager_ops = uncaptured = graph_ops = eager_fns = 0
    codes = {}
    for case in range(CASES):
        seed = SEED + case
        src = generate(seed)
        fname = '<sot-fuzz-%d>' % seed
        linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
        ns = {}
        exec(compile(src, fname, 'exec'), ns)
        f = ns['f']
        sf = paddle.jit.to_static(f)
        rng = random.Random(seed)
        a, b = _args(rng), _args(rng)
        for call, args in enumerate((a, b, a)):
            ea, ta = _copy(args), _copy(args)
            # globals the functions read and write: the same start for both runs
            ns['COUNT'], ns['LOG'] = call, []
            e0 = _skiff_sot.eager_op_count()
            want, want_out = _run(f, ea)
            want_count, want_log = ns['COUNT'], ns['LOG']
            ns['COUNT'], ns['LOG'] = call, []
            e1 = _skiff_sot.eager_op_count()
            g0 = _skiff_sot.graph_op_count()
            got, got_out = _run(sf, ta)
            e2 = _skiff_sot.eager_op_count()
            try:
                assert got[0] == want[0], 'eager %s, translated %s: %r / %r' % (want[0], got[0], want[1], got[1])
                if want[0] == 'raised':
                    assert got[1] == want[1], '%r vs %r' % (got[1], want[1])
                else:
                    _same(got[1], want[1])
                assert got_out == want_out, 'printed %r vs %r' % (got_out, want_out)
                _same(ta, ea, 'arguments after the call')
                assert ns['COUNT'] == want_count, 'global COUNT %r vs %r' % (ns['COUNT'], want_count)
                assert ns['LOG'] == want_log, 'global LOG %r vs %r' % (ns['LOG'], want_log)
            except AssertionError as err:
                failures.append('seed %d call %d: %s\n%s' % (seed, call + 1, err, src))
                break
            if call == 2:   # the cached translation: what still ran eagerly
                eager_ops += e1 - e0
                uncaptured += e2 - e1
                graph_ops += _skiff_sot.graph_op_count() - g0
        from sot_check import explain
        e = explain(sf)
        eager_fns += bool(e.get('eager'))
        for brk in e.get('breaks', []):
            codes[brk['code']] = codes.get(brk['code'], 0) + 1
        del linecache.cache[fname]
    share = 1 - uncaptured / eager_ops if eager_ops else 1.0
    _report('sot fuzz (Python %d.%d): %d cases, %d failures, %d ran eagerly; cached calls ran %d of %d eager ops '
            'eagerly (%.1f%% captured, %d ops in graphs); breaks by code: %s'
            % (sys.version_info[0], sys.version_info[1], CASES, len(failures), eager_fns, uncaptured, eager_ops,
               100 * share, graph_ops, dict(sorted(codes.items()))))
    assert not failures, '%d of %d fuzz cases differ from eager (seeds %s); first:\n%s' % (
        len(failures), CASES, [int(f.split()[1]) for f in failures], failures[0])

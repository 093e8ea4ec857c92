"""Differential tests of Skiff's numpy against REAL numpy: every case of
numpy_fixtures/numpy_cases.py runs here and its result (dtype, shape, values, scalar type,
repr text or error class) must match what real numpy produced (numpy_fixtures/expected.json,
written by gen_expected.py from Debian's numpy). One test per numpy function group."""
import json
import math
import os
import sys

import numpy as np

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'numpy_fixtures')
sys.path.insert(0, _HERE)
import numpy_cases  # noqa: E402

with open(os.path.join(_HERE, 'expected.json')) as _f:
    EXPECTED = json.load(_f)['cases']

# values computed by a transcendental kernel may differ from numpy's libm in the last bits
_RTOL = {'float64': 1e-12, 'float32': 2e-6, 'float16': 1e-3}


def _close(a, b, dtype):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if dtype in _RTOL and isinstance(a, float) and isinstance(b, float):
        tol = _RTOL[dtype]
        return abs(a - b) <= tol * max(abs(a), abs(b)) + tol
    return a == b and type(a) is type(b)


def _diff(got, exp, where):
    """A description of the first mismatch, or None."""
    if exp['t'] == 'e':
        if got['t'] != 'e':
            return '%s: expected an error %s, got %s' % (where, exp['errors'], _short(got))
        missing = [e for e in exp['errors'] if e not in got['errors']]
        return '%s: error classes %s, expected %s' % (where, got['errors'], exp['errors']) if missing else None
    if got['t'] != exp['t']:
        return '%s: got %s, expected %s' % (where, _short(got), _short(exp))
    t = exp['t']
    if t == 'l':
        if len(got['items']) != len(exp['items']):
            return '%s: %d items, expected %d' % (where, len(got['items']), len(exp['items']))
        for i, (g, e) in enumerate(zip(got['items'], exp['items'])):
            d = _diff(g, e, '%s[%d]' % (where, i))
            if d:
                return d
        return None
    if t == 'str':
        return None if got['v'] == exp['v'] else '%s: text\n%s\nexpected\n%s' % (where, got['v'], exp['v'])
    if t == 'none':
        return None
    if t == 'p':
        if got['type'] != exp['type'] or not _close(got['v'], exp['v'], 'float64' if exp['type'] == 'float' else None):
            return '%s: %r (%s), expected %r (%s)' % (where, got['v'], got['type'], exp['v'], exp['type'])
        return None
    if got['dtype'] != exp['dtype']:
        return '%s: dtype %s, expected %s (got %s)' % (where, got['dtype'], exp['dtype'], _short(got))
    if t == 'a' and got['shape'] != exp['shape']:
        return '%s: shape %s, expected %s' % (where, got['shape'], exp['shape'])
    gv = got['v'] if t == 'a' else [got['v']]
    ev = exp['v'] if t == 'a' else [exp['v']]
    for i, (g, e) in enumerate(zip(gv, ev)):
        if not _close(g, e, exp['dtype']):
            return '%s: element %d is %r, expected %r\n got: %s\n expected: %s' % (where, i, g, e, _short(got), _short(exp))
    return None


def _short(r):
    s = json.dumps(r)
    return s if len(s) < 400 else s[:400] + '...'


def _known(exp, what):
    """The expectation for a documented difference: an error class, or another result dtype."""
    if what.endswith('Error'):
        return {'t': 'e', 'errors': [what]}
    return dict(exp, dtype=what)


def _make(group):
    def test():
        fns = numpy_cases.CASES[group]
        exp = EXPECTED[group]
        assert len(fns) == len(exp), 'expected.json is stale for %s: regenerate with gen_expected.py' % group
        bad = []
        for i, (fn, e) in enumerate(zip(fns, exp)):
            got = numpy_cases.run_case(np, fn)
            known = numpy_cases.KNOWN_DIFFERENCES.get((group, i))
            if known is not None:
                e = _known(e, known)
            d = _diff(got, e, '%s case %d' % (group, i))
            if d:
                bad.append(d)
        assert not bad, '\n'.join(bad)
    test.__name__ = 'test_' + group
    return test


for _g in numpy_cases.CASES:
    globals()['test_' + _g] = _make(_g)


def test_expected_from_real_numpy():
    with open(os.path.join(_HERE, 'expected.json')) as f:
        v = json.load(f)['numpy_version']
    assert int(v.split('.')[0]) >= 2, 'fixtures must come from numpy 2 (NEP 50 promotion), got %s' % v
    assert not math.isnan(0.0)

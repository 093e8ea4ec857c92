"""Runs Python test files for the vitest harness (test/python/harness.ts).

`collect(path)` lists a file's tests: module-level `test_*` functions and the test methods of
unittest.TestCase classes ('Class.test_x'). `run(path, name)` runs one and reports
{"status": "pass" | "fail" | "skip", "message": ...} as JSON. `parity(path, name, inputs)` calls
a case function on tensors built from JSON and returns its result as JSON, for comparisons with
the TypeScript API.
"""
import importlib.util
import json
import math
import os
import sys
import traceback
import unittest

_modules = {}


def version():
    return '%d.%d' % sys.version_info[:2]


def _load(path):
    m = _modules.get(path)
    if m is None:
        d = os.path.dirname(path)
        if d not in sys.path:
            sys.path.insert(0, d)
        name = 'skiff_case_' + os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        m = importlib.util.module_from_spec(spec)
        sys.modules[name] = m
        spec.loader.exec_module(m)
        _modules[path] = m
    return m


def _format(e, skip_frames=1):
    tb = e.__traceback__
    for _ in range(skip_frames):
        if tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
    return ''.join(traceback.format_exception(type(e), e, tb))


def collect(path):
    try:
        m = _load(path)
    except BaseException as e:
        return json.dumps({'error': _format(e, 0)})
    names = []
    loader = unittest.TestLoader()
    for key, v in list(vars(m).items()):
        if key.startswith('test') and callable(v) and getattr(v, '__module__', None) == m.__name__ and not isinstance(v, type):
            names.append(key)
        elif isinstance(v, type) and issubclass(v, unittest.TestCase) and v.__module__ == m.__name__:
            names.extend('%s.%s' % (key, t) for t in loader.getTestCaseNames(v))
    return json.dumps({'tests': names})


def run(path, name):
    m = _load(path)
    if '.' in name:
        cls_name, meth = name.split('.', 1)
        result = unittest.TestResult()
        unittest.TestSuite([getattr(m, cls_name)(meth)]).run(result)
        if result.skipped:
            return json.dumps({'status': 'skip', 'message': result.skipped[0][1]})
        bad = result.failures + result.errors
        if bad:
            return json.dumps({'status': 'fail', 'message': bad[0][1]})
        return json.dumps({'status': 'pass'})
    try:
        getattr(m, name)()
    except unittest.SkipTest as e:
        return json.dumps({'status': 'skip', 'message': str(e)})
    except BaseException as e:
        return json.dumps({'status': 'fail', 'message': _format(e)})
    return json.dumps({'status': 'pass'})


def _clean(v):
    if isinstance(v, float) and not math.isfinite(v):
        return 'nan' if v != v else ('inf' if v > 0 else '-inf')
    if isinstance(v, list):
        return [_clean(x) for x in v]
    return v


def _describe(r):
    import paddle
    if isinstance(r, paddle.Tensor):
        return {'shape': r.shape, 'dtype': r.dtype.name, 'data': _clean(r.tolist())}
    if isinstance(r, (list, tuple)):
        return [_describe(x) for x in r]
    return {'value': _clean(r)}


def parity(path, name, inputs_json):
    """Calls case `name` of `path` with tensors built from [[data, dtype], ...]; returns JSON."""
    import paddle
    m = _load(path)
    args = [paddle.to_tensor(d, dtype=dt) for d, dt in json.loads(inputs_json)]
    try:
        r = getattr(m, name)(*args)
    except BaseException as e:
        return json.dumps({'error': '%s: %s' % (type(e).__name__, e), 'traceback': _format(e)})
    return json.dumps({'result': _describe(r)})

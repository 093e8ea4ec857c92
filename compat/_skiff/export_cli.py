"""`skiff export model.py --input-spec ... [--format pir|onnx] [-o path]` (frontend/cli/export.ts).

The script runs once as a module named `__skiff_export__` (not `__main__`, so an
`if __name__ == '__main__':` training block is skipped), then the thing to export is taken from
its globals:
  --layer NAME  the global NAME;
  otherwise     the global `model`, else the result of calling `build()` with no arguments.
A Layer class (rather than an instance) is instantiated with no arguments; a function is
exported as is. The input specs arrive parsed by the TypeScript side as JSON.
"""
import json
import os
import runpy

from . import runner


class ExportError(Exception):
    pass


def _pick(g, layer_name, script):
    import paddle
    if layer_name:
        if layer_name not in g:
            raise ExportError('skiff export: %s defines no global named %r (--layer)' % (script, layer_name))
        obj, what = g[layer_name], layer_name
    elif 'model' in g:
        obj, what = g['model'], 'model'
    elif callable(g.get('build')):
        obj, what = g['build'](), 'build()'
    else:
        raise ExportError('skiff export: %s must define a global `model` (a Layer or function), a `build()` function '
                          'returning one, or name a global with --layer' % script)
    if isinstance(obj, type) and issubclass(obj, paddle.nn.Layer):
        obj = obj()
    if not callable(obj):
        raise ExportError('skiff export: %s in %s is %s, not a Layer or function' % (what, script, type(obj).__name__))
    return obj, what


def _run(script, opts):
    import paddle
    g = runpy.run_path(script, run_name='__skiff_export__')
    obj, what = _pick(g, opts.get('layer'), script)
    specs = [paddle.static.InputSpec(s['shape'], s['dtype'], s.get('name')) for s in opts['specs']] or None
    out = opts['out']
    if opts['format'] == 'onnx':
        if specs is None:
            raise ExportError('skiff export: --format onnx needs --input-spec')
        paddle.onnx.export(obj, out + '.onnx', input_spec=specs, opset_version=opts.get('opset', 17))
        files = [out + '.onnx']
    else:
        paddle.jit.save(obj, out, input_spec=specs)
        files = [out + '.pir', out + '.pdiparams']
    print('skiff export: %s -> %s' % (what, ', '.join(files)))


def export_path(path, opts_json, cwd=''):
    """Runs `path`, exports its model as `opts` says; returns the exit code (1 with a message on error)."""
    opts = json.loads(opts_json)
    runner._enter(cwd, os.path.dirname(path), [path])

    def go():
        try:
            _run(path, opts)
        except ExportError as e:
            raise SystemExit(str(e))
    return runner._run(go, path)

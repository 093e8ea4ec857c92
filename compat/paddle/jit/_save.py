"""paddle.jit.save / paddle.jit.load for Python (the model format is src/jit's, shared with TS).

save traces the forward once with paddle.static: each InputSpec becomes a paddle.static.data
(None / -1 dims stay symbolic), the layer runs in eval mode on those Variables, and its eager
parameters enter the program as parameters. Python code that needs a tensor's value while
tracing (`.numpy()`, `if tensor:`, `int(t)`) cannot be part of an inference program: save then
fails listing each graph break the translator finds (code, file:line, source), and writes
nothing. The program goes through the 'inference' pass pipeline in TypeScript (_skiff_jit);
Python writes `path.pir` and `path.pdiparams` itself, since its paths are in Pyodide's file
system.
"""
import inspect
import os

import _skiff_jit as _jit

from .. import _bridge
from ..tensor import Tensor, _wrap

__all__ = ['save', 'load', 'TranslatedLayer']


def _error():
    kind, _, msg = _jit.last_error().partition('\x01')
    return _bridge._EXC.get(kind, RuntimeError)(msg)


def _check(r):
    if type(r) is int and r == 0:
        raise _error()
    return r


def _target(layer):
    """(function to trace, Layer or None). A to_static wrapper is traced through its original."""
    from ..nn.layer.layers import Layer
    from .sot.runtime import StaticFunction
    if isinstance(layer, Layer):
        fwd = layer.forward
        if isinstance(fwd, StaticFunction):
            return fwd._fn, layer, fwd._input_spec
        return layer, layer, None
    if isinstance(layer, StaticFunction):
        return layer._fn, None, layer._input_spec
    if callable(layer):
        return layer, None, None
    raise TypeError('paddle.jit.save: expected a Layer or a function, got %s' % type(layer).__name__)


def _arg_names(fn, n):
    """Parameter names of the traced function (Paddle names feeds after them), x0.. otherwise."""
    try:
        target = fn.forward if hasattr(fn, 'forward') and not inspect.isfunction(fn) else fn
        params = [p.name for p in inspect.signature(target).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else 'x%d' % i for i in range(n)]


def _specs(input_spec):
    from . import InputSpec
    if not input_spec:
        raise TypeError('paddle.jit.save: input_spec must be a non-empty list of InputSpec (one per forward argument)')
    out = []
    for i, s in enumerate(input_spec):
        if isinstance(s, Tensor):
            s = InputSpec(s.shape, str(s.dtype).replace('paddle.', ''), None)
        if not isinstance(s, InputSpec):
            raise TypeError('paddle.jit.save: input_spec[%d] must be an InputSpec, got %s' % (i, type(s).__name__))
        if s.shape is None:
            raise ValueError('paddle.jit.save: input_spec[%d] has no shape' % i)
        out.append(s)
    return out


def _feed_names(fn, specs):
    defaults = _arg_names(fn, len(specs))
    used, names = set(), []
    for i, s in enumerate(specs):
        base = s.name or defaults[i]
        n, k = base, 1
        while n in used:
            n, k = '%s_%d' % (base, k), k + 1
        used.add(n)
        names.append(n)
    return names


def _flatten(out, path='out'):
    from ..static.variable import Variable
    if isinstance(out, Variable):
        return [out]
    if isinstance(out, (list, tuple)):
        return [v for i, o in enumerate(out) for v in _flatten(o, '%s[%d]' % (path, i))]
    if isinstance(out, dict):
        return [v for k, o in out.items() for v in _flatten(o, '%s[%r]' % (path, k))]
    if isinstance(out, Tensor):
        raise ValueError('paddle.jit.save: output %s does not depend on the inputs (a constant tensor); saving it is not supported' % path)
    raise TypeError('paddle.jit.save: output %s is %s, not a tensor' % (path, type(out).__name__))


def _dtype_name(d):
    return str(d).replace('paddle.', '')


def _example(specs):
    import paddle
    return [paddle.ones([2 if d is None or d < 0 else d for d in s.shape], dtype=_dtype_name(s.dtype)) for s in specs]


def _user_frame(tb):
    """The innermost traceback frame outside the paddle package: where the user's code broke."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    last = None
    while tb is not None:
        f = tb.tb_frame.f_code.co_filename
        if not os.path.abspath(f).startswith(here):
            last = '%s:%d' % (f, tb.tb_lineno)
        tb = tb.tb_next
    return last


def _capture_error(fn, specs, exc):
    """The save error: each graph break SOT finds in fn (code, file:line, source), else the failing line."""
    lines = []
    try:
        from . import sot
        info = sot.explain(fn, *_example(specs))
        breaks = info.get('breaks', [])
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        # Breaks inside Skiff's own packages (numpy, paddle) follow from a user-level one: listed only if alone.
        user = [b for b in breaks if not os.path.abspath(str(b.get('file'))).startswith(here + os.sep)]
        for b in user or breaks:
            lines.append('  [%s] %s:%s: %s%s' % (b.get('code'), b.get('file'), b.get('line'), (b.get('source') or '').strip(),
                                                (' (%s)' % b['detail']) if b.get('detail') else ''))
    except Exception:  # noqa: BLE001 - listing breaks is best effort; the tracing error below is the cause
        pass
    if not lines:
        where = _user_frame(exc.__traceback__)
        lines.append('  %s%s: %s' % (where + ': ' if where else '', type(exc).__name__, exc))
    return RuntimeError('paddle.jit.save: the forward cannot be captured as one inference graph; no model was written. '
                        'Graph breaks:\n' + '\n'.join(lines) + '\n(tracing stopped at: %s: %s)' % (type(exc).__name__, exc))


def _write(path, data, mode):
    tmp = path + '.tmp'
    with open(tmp, mode) as f:   # written whole, then renamed: a failed save leaves no half file
        f.write(data)
    os.replace(tmp, path)


def save(layer, path, input_spec=None, **configs):
    """Saves `layer` (its forward in eval mode) or a function as `path.pir` + `path.pdiparams`.

    >>> paddle.jit.save(model, 'out/lenet', input_spec=[paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'x')])
    """
    import paddle
    from .. import static
    if not isinstance(path, str) or not path:
        raise TypeError('paddle.jit.save: path must be a non-empty string')
    fn, owner, own_spec = _target(layer)
    specs = _specs(input_spec if input_spec is not None else own_spec)
    names = _feed_names(fn, specs)
    modes = [(l, l.training) for l in owner.sublayers(include_self=True)] if owner is not None else []
    was_static = not paddle.in_dynamic_mode()
    if owner is not None:
        owner.eval()
    main = static.Program()
    mid = 0
    try:
        paddle.enable_static()
        with static.program_guard(main):
            feeds = [static.data(n, [-1 if d is None else d for d in s.shape], _dtype_name(s.dtype)) for n, s in zip(names, specs)]
            failure = None
            try:
                out = fn(*feeds)
            except Exception as e:  # noqa: BLE001 - reported with the graph breaks below
                failure = e
            if failure is None:
                outs = _flatten(out)
                if not outs:
                    raise ValueError('paddle.jit.save: the forward returned no tensors to save')
                mid = _check(_jit.capture(','.join(str(v._vid) for v in feeds), ','.join(str(v._vid) for v in outs)))
        if failure is not None:
            paddle.disable_static()
            raise _capture_error(fn, specs, failure) from None
        text = _check(_jit.model_text(mid))
        params = _check(_jit.model_params(mid)).to_bytes()
    finally:
        if mid:
            _jit.model_free(mid)
        if was_static:
            paddle.enable_static()
        else:
            paddle.disable_static()
        if modes:
            from ..nn.layer.layers import _changed
            for l, t in modes:
                l.__dict__['training'] = t
            _changed()   # a mode switch: to_static caches guard on the layer structure version
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    _write(path + '.pdiparams', params, 'wb')
    _write(path + '.pir', text, 'w')


class TranslatedLayer:
    """A model loaded by paddle.jit.load: call it with one tensor per input (numpy arrays and
    lists are converted to the input's dtype); returns a Tensor, or a list for several outputs."""

    def __init__(self, lid, header, path):
        self._id = lid
        self._header = header
        self._path = path
        self.training = False

    def __del__(self, _free=_jit.free):
        if getattr(self, '_id', 0):
            _free(self._id)

    @property
    def input_names(self):
        return [i['name'] for i in self._header['inputs']]

    @property
    def output_names(self):
        return [o['name'] for o in self._header['outputs']]

    def _run(self, inputs):
        from ..creation import to_tensor
        ins = self._header['inputs']
        if len(inputs) != len(ins):
            raise TypeError('%s: the model takes %d inputs (%s), got %d' % (self._path, len(ins), ', '.join(self.input_names), len(inputs)))
        ts = [x if isinstance(x, Tensor) else to_tensor(x, dtype=info['dtype']) for x, info in zip(inputs, ins)]
        r = _check(_jit.run(self._id, *[t._h for t in ts]))
        return [_wrap(int(h)) for h in r.split(',')] if r else []

    def __call__(self, *inputs):
        outs = self._run(inputs)
        return outs[0] if len(outs) == 1 else outs

    forward = __call__

    def eval(self):
        self.training = False
        return self

    def train(self):
        raise RuntimeError('%s: a loaded inference model cannot be trained' % self._path)

    def _plan_count(self):
        return _check(_jit.plan_count(self._id))


def _read(path, mode):
    try:
        with open(path, mode) as f:
            return f.read()
    except OSError as e:
        raise _bridge._EXC.get('ValueError', ValueError)('%s: cannot read the file (%s)' % (path, e.strerror or e)) from None


def load_files(prog_file, params_file):
    """A TranslatedLayer from explicit .pir (or Paddle .pdmodel) / .pdiparams files (paddle.inference uses this)."""
    import json
    raw = _read(prog_file, 'rb')
    if prog_file.endswith('.pdmodel'):
        # Paddle 2.x ProgramDesc: translated to a Skiff program in TypeScript (src/jit/pdmodel)
        params = _read(params_file, 'rb')
        lid = _check(_jit.load_pdmodel(raw, params, prog_file, params_file))
        return TranslatedLayer(lid, json.loads(_check(_jit.header(lid))), prog_file)
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError as e:
        raise ValueError('%s: not a Skiff model (not UTF-8 text: %s)' % (prog_file, e)) from None
    params = _read(params_file, 'rb')
    lid = _check(_jit.load(text, params, prog_file, params_file))
    return TranslatedLayer(lid, json.loads(_check(_jit.header(lid))), prog_file)


def model_files(path, params_file=None):
    """(program file, parameter file) of a model path: a .pir / .pdmodel file, or a prefix
    (prefix.pir, else prefix.pdmodel when only that exists)."""
    prog = path
    if params_file is None and not path.endswith('.pir') and not path.endswith('.pdmodel'):
        prog = path + '.pdmodel' if not os.path.exists(path + '.pir') and os.path.exists(path + '.pdmodel') else path + '.pir'
    if params_file is None:
        params_file = prog[:prog.rindex('.')] + '.pdiparams' if prog.endswith(('.pir', '.pdmodel')) else prog + '.pdiparams'
    return prog, params_file


def load(path, **configs):
    """Loads a model saved by paddle.jit.save (`path` as given to save, or the .pir file), or a
    Paddle 2.x inference model (`path` prefix of, or the, .pdmodel file with its .pdiparams)."""
    if not isinstance(path, str) or not path:
        raise TypeError('paddle.jit.load: path must be a non-empty string')
    return load_files(*model_files(path))

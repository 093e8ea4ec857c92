"""paddle.onnx.export: a Layer's forward as an ONNX model.

The forward runs once on paddle.static.data Variables (eval mode) inside a fresh
paddle.static.Program, the way Paddle 2.6 traces it; src/jit/onnx converts that program
(parameters become initializers, None / -1 dims stay symbolic as dim_param).

>>> import paddle
>>> model = paddle.vision.models.LeNet()
>>> paddle.onnx.export(model, 'lenet', input_spec=[paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'x')])
"""
import _skiff_static as _js_mod

from ..static import _js
from ..static.program import Program, program_guard

__all__ = ['export']


def _spec_fields(spec, i, n):
    if isinstance(spec, (list, tuple)):
        shape, dtype, name = list(spec), 'float32', None
    elif hasattr(spec, 'shape'):
        shape, dtype, name = spec.shape, getattr(spec, 'dtype', 'float32'), getattr(spec, 'name', None)
    else:
        raise TypeError('paddle.onnx.export: input_spec[%d] must be an InputSpec or a shape list, got %r' % (i, spec))
    if shape is None:
        raise TypeError('paddle.onnx.export: input_spec[%d] has no shape' % i)
    if name is None:
        name = 'x' if n == 1 else 'x%d' % i
    return name, [None if d is None or d == -1 else d for d in shape], dtype


def _flatten(out):
    if isinstance(out, (list, tuple)):
        return [v for o in out for v in _flatten(o)]
    if isinstance(out, dict):
        return [v for o in out.values() for v in _flatten(o)]
    if getattr(out, '_skiff_static', False):
        return [out]
    raise TypeError('paddle.onnx.export: the forward must return tensors computed from its inputs, got %r' % (out,))


def export(layer, path, input_spec=None, opset_version=17, **configs):
    """Writes `path` + '.onnx' (unless path already ends in .onnx): the ONNX model (opset
    `opset_version`, default 17) of `layer`'s forward on inputs described by `input_spec`."""
    from .. import static
    if not isinstance(path, str) or not path:
        raise TypeError('paddle.onnx.export: path must be a non-empty string')
    if not input_spec:
        raise ValueError('paddle.onnx.export: input_spec is required (a list of paddle.static.InputSpec)')
    specs = list(input_spec)
    training = getattr(layer, 'training', False)
    if training and hasattr(layer, 'eval'):
        layer.eval()
    # Python encodes Variables for the ops only in static mode (as Paddle traces its export).
    dynamic = static.in_dynamic_mode()
    if dynamic:
        static.enable_static()
    prog = Program()
    try:
        with program_guard(prog):
            xs = []
            for i, s in enumerate(specs):
                name, shape, dtype = _spec_fields(s, i, len(specs))
                xs.append(static.data(name, shape, dtype))
            outs = _flatten(layer(*xs))
        if not outs:
            raise ValueError('paddle.onnx.export: the forward returned no outputs')
        data = _js.check(_js_mod.onnx_export(prog._id, ','.join(str(v._vid) for v in outs), int(opset_version)))
        raw = data.to_bytes() if hasattr(data, 'to_bytes') else bytes(data)
    finally:
        if dynamic:
            static.disable_static()
        if training and hasattr(layer, 'train'):
            layer.train()
    with open(path if path.endswith('.onnx') else path + '.onnx', 'wb') as f:
        f.write(raw)

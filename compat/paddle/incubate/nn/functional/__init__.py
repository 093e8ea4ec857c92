"""paddle.incubate.nn.functional.fused_rms_norm over the registry op rms_norm
(src/ops/defs/nn_transformer.ts binds the same function for TypeScript)."""
from .... import _ops


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis, bias=None, residual=None, quant_scale=-1,
                   quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """rms_norm(x + bias + residual) * norm_weight + norm_bias over dims [begin_norm_axis, ndim);
    returns out, or (out, residual_out) when residual is given."""
    if quant_scale is not None and quant_scale > 0:
        raise NotImplementedError('fused_rms_norm: quantized output (quant_scale %r) is not supported' % (quant_scale,))
    if begin_norm_axis < 0:
        begin_norm_axis += x.ndim
    s = x
    if bias is not None:
        s = s + bias
    if residual is not None:
        s = s + residual
    out = _ops.function('rms_norm')(s, norm_weight, norm_bias, epsilon, begin_norm_axis)[0]
    return (out, s) if residual is not None else out

"""paddle.nn.functional.

Registry ops published as 'nn.functional.<name>' are installed here at import and replace the
compositions below, which only fill gaps: each is written with public registry ops
(F.linear = matmul + add) and raises NotImplementedError naming the op it lacks.
"""
import math

from ... import _ops


def _need(path, who):
    f = _ops.public(path)
    if f is None:
        raise NotImplementedError("paddle.nn.functional.%s needs paddle.%s, which Skiff's op registry does not provide yet" % (who, path))
    return f


def _f(name):
    """A functional op by name: the installed nn.functional one, else the top-level paddle one."""
    return _ops.public('nn.functional.' + name) or _ops.public(name)


def linear(x, weight, bias=None, name=None):
    """x @ weight (+ bias); weight has shape [in_features, out_features]."""
    y = _need('matmul', 'linear')(x, weight)
    if bias is not None:
        y = _need('add', 'linear')(y, bias)
    return y


def relu(x, name=None):
    return _need('maximum', 'relu')(x, _zeros_like(x))


def _zeros_like(x):
    from ...creation import zeros
    return zeros([], x.dtype)


def dropout(x, p=0.5, axis=None, training=True, mode='upscale_in_train', name=None):
    """Identity at inference (mode 'upscale_in_train'); training draws a keep-mask with paddle.uniform."""
    if not 0 <= p <= 1:
        raise ValueError('dropout: p must be in [0, 1], got %r' % (p,))
    if mode not in ('upscale_in_train', 'downscale_in_infer'):
        raise ValueError("dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', got %r" % (mode,))
    if not training:
        return x if mode == 'upscale_in_train' else x * (1.0 - p)
    if p == 0:
        return x
    if axis is not None:
        raise NotImplementedError('dropout with axis is not supported yet')
    u = _need('uniform', 'dropout')(shape=x.shape, dtype=x.dtype, min=0.0, max=1.0)
    keep = (u >= p).astype(x.dtype)
    y = x * keep
    return y / (1.0 - p) if mode == 'upscale_in_train' and p < 1 else y


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    shape = x.shape
    n = len(shape)
    if n == 0:
        return _need('reshape', 'flatten')(x, [1])
    s = start_axis + n if start_axis < 0 else start_axis
    e = stop_axis + n if stop_axis < 0 else stop_axis
    if not 0 <= s <= e < n:
        raise ValueError('flatten: start_axis %d and stop_axis %d are invalid for a tensor of rank %d' % (start_axis, stop_axis, n))
    m = 1
    for d in shape[s:e + 1]:
        m *= d
    return _need('reshape', 'flatten')(x, shape[:s] + [m] + shape[e + 1:])


def gelu(x, approximate=False, name=None):
    if approximate:
        tanh = _need('tanh', 'gelu')
        return 0.5 * x * (1.0 + tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))
    erf = _need('erf', 'gelu')
    return 0.5 * x * (1.0 + erf(x * (1.0 / math.sqrt(2.0))))


def sigmoid(x, name=None):
    return 1.0 / (1.0 + _need('exp', 'sigmoid')(-x))


def softmax(x, axis=-1, dtype=None, name=None):
    if dtype is not None:
        x = x.astype(dtype)
    m = _need('max', 'softmax')(x, axis, True)
    e = _need('exp', 'softmax')(x - m)
    return e / _need('sum', 'softmax')(e, axis, None, True)


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    if isinstance(normalized_shape, int):
        normalized_shape = [normalized_shape]
    k = len(normalized_shape)
    if list(x.shape[-k:]) != list(normalized_shape):
        raise ValueError('layer_norm: normalized_shape %s does not match the last dims of input shape %s' % (list(normalized_shape), x.shape))
    op = _ops.BY_OP.get('layer_norm')
    if op is not None:
        # the registry's layer_norm op normalizes every dim from begin_norm_axis on, as Paddle's does
        return op(x, weight, bias, epsilon, x.ndim - k)[0]   # outputs: out, mean, variance
    axes = list(range(x.ndim - k, x.ndim))
    mean = _need('mean', 'layer_norm')
    mu = mean(x, axes, True)
    d = x - mu
    var = mean(d * d, axes, True)
    y = d / _need('sqrt', 'layer_norm')(var + epsilon)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format='NCHW', name=None):
    """The registry's group_norm op (outputs: y, mean, variance); Paddle 2.6's argument order."""
    return _ops.BY_OP['group_norm'](x, weight, bias, num_groups, epsilon, data_format)[0]


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.9,
                  eps=1e-05, data_format='NCHW', name=None):
    """Normalises with the input's own statistics, as Paddle's dynamic mode does (running stats unused)."""
    return _ops.BY_OP['instance_norm'](x, weight, bias, eps, data_format)[0]


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9, epsilon=1e-05,
               data_format='NCHW', use_global_stats=None, name=None):
    """Paddle's F.batch_norm (the registry op batch_norm): in training without global statistics,
    x is normalised with the batch's statistics and the running statistics are updated in place
    (as TS's batch_norm_api in src/ops/defs/nn_norm.ts)."""
    op = _ops.function('batch_norm')
    updates = training and use_global_stats is not True
    if not updates:
        return op(x, running_mean, running_var, weight, bias, training, momentum, epsilon, data_format, use_global_stats)[0]
    # The op gets copies: the tape saves its inputs 1 and 2, and the write below bumps their version.
    scale = _need('scale', 'batch_norm')
    out, mean, variance = op(x, scale(running_mean, 1.0), scale(running_var, 1.0), weight, bias, training, momentum, epsilon,
                             data_format, use_global_stats)
    # statistics, not a function of the parameters: no gradient flows into the buffers (Paddle's MeanOut)
    running_mean[...] = mean.detach()
    running_var[...] = variance.detach()
    return out


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False, scale_grad_by_freq=False, name=None):
    sel = _ops.public('index_select') or _ops.public('gather')
    if sel is None:
        raise NotImplementedError('paddle.nn.functional.embedding needs paddle.index_select or paddle.gather')
    flat = _need('reshape', 'embedding')(x, [-1])
    rows = sel(weight, flat, 0) if _ops.public('index_select') else sel(weight, flat)
    return _need('reshape', 'embedding')(rows, x.shape + [weight.shape[1]])


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction='mean', pos_weight=None, name=None):
    """The registry op binary_cross_entropy_with_logits (inputs logit, label, weight, pos_weight;
    attr reduction): Paddle's signature puts pos_weight after reduction, so it is bound here."""
    return _ops.function('binary_cross_entropy_with_logits')(logit, label, weight, pos_weight, reduction)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format='NCHW', name=None):
    raise NotImplementedError("paddle.nn.functional.conv2d needs the registry op conv2d, which Skiff does not provide yet")


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NCHW', name=None):
    raise NotImplementedError("paddle.nn.functional.max_pool2d needs the registry op max_pool2d (pool2d), which Skiff does not provide yet")


from ._extra import bilinear, dropout2d, dropout3d, alpha_dropout  # noqa: E402,F401  (compositions, as in Paddle)
from ._transformer import scaled_dot_product_attention, rms_norm  # noqa: E402,F401  (Paddle's argument order over the registry ops)
from ._pool_frac import fractional_max_pool2d, fractional_max_pool3d  # noqa: E402,F401  (random_u drawn when None)

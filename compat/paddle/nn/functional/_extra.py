"""F.bilinear, F.dropout2d/3d and F.alpha_dropout: Paddle composes these from other ops, and so
does Skiff (registry ops only, so gradients come from their rules). src/nn/layers_extra.ts is the
TypeScript twin."""
import paddle

_SELU_ALPHA = 1.6732632423543772
_SELU_SCALE = 1.0507009873554805


def bilinear(x1, x2, weight, bias=None, name=None):
    """out[b, o] = x1[b] @ weight[o] @ x2[b] + bias[0, o]; weight [out, in1, in2], bias [1, out]."""
    s1, s2, sw = list(x1.shape), list(x2.shape), list(weight.shape)
    if len(sw) != 3 or len(s1) != 2 or len(s2) != 2 or s1[0] != s2[0] or s1[1] != sw[1] or s2[1] != sw[2]:
        raise ValueError('bilinear: x1 %s and x2 %s must be [batch, in1] and [batch, in2] matching weight [out, in1, in2] = %s' % (s1, s2, sw))
    out, in1, in2 = sw
    # x1 @ W viewed as [in1, out * in2] gives every x1[b] W[o] row at once; the x2 contraction is a multiply + sum.
    w = paddle.reshape(paddle.transpose(weight, [1, 0, 2]), [in1, out * in2])
    t = paddle.reshape(paddle.matmul(x1, w), [s1[0], out, in2])
    y = paddle.sum(t * paddle.unsqueeze(x2, [1]), axis=-1)
    if bias is None:
        return y
    if bias.size != out or len(bias.shape) > 2:
        raise ValueError('bilinear: bias must be [1, %d], got %s' % (out, list(bias.shape)))
    return y + paddle.reshape(bias, [1, out])


def _channel_axes(who, rank, x, data_format, formats):
    if len(x.shape) != rank:
        raise ValueError('%s: x must be %d-D, got %s' % (who, rank, list(x.shape)))
    if data_format not in formats:
        raise ValueError("%s: data_format must be '%s' or '%s', got %r" % (who, formats[0], formats[1], data_format))
    return [0, 1] if data_format == formats[0] else [0, rank - 1]


def dropout2d(x, p=0.5, training=True, data_format='NCHW', name=None):
    """Drops whole channels: dropout with axis [N, C]."""
    from . import dropout
    return dropout(x, p=p, axis=_channel_axes('dropout2d', 4, x, data_format, ('NCHW', 'NHWC')), training=training, mode='upscale_in_train')


def dropout3d(x, p=0.5, training=True, data_format='NCDHW', name=None):
    from . import dropout
    return dropout(x, p=p, axis=_channel_axes('dropout3d', 5, x, data_format, ('NCDHW', 'NDHWC')), training=training, mode='upscale_in_train')


def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropped units take SELU's negative saturation value; a*y + b restores zero mean and unit variance."""
    if not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError('alpha_dropout: p must be in [0, 1], got %r' % (p,))
    if not training or p == 0:
        return x
    if p == 1:
        return paddle.scale(x, scale=0.0)
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    keep = paddle.greater_equal(paddle.uniform(x.shape, dtype='float32', min=0.0, max=1.0), paddle.full([], p, 'float32')).astype(x.dtype)
    y = x * keep + paddle.scale(keep, scale=-alpha_p, bias=alpha_p)   # (1 - keep) * alpha_p
    return paddle.scale(y, scale=a, bias=b)

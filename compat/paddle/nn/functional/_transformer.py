"""scaled_dot_product_attention and rms_norm: Paddle's argument order bound onto the registry ops
of the same names (src/ops/defs/nn_transformer.ts is the TypeScript twin). Attention dropout in
training runs through the unfused ops, because the fused kernel keeps no dropout mask."""
import math

from ... import _ops


def _bhsd(x):
    return _ops.function('transpose')(x, [0, 2, 1, 3])


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, training=True, name=None):
    """softmax(Q K^T / sqrt(head_dim) + mask) V on [batch, seq_len, num_heads, head_dim] tensors."""
    fused = _ops.function('scaled_dot_product_attention')
    if not (dropout_p > 0 and training):
        return fused(query, key, value, attn_mask, dropout_p, is_causal, training)
    if dropout_p > 1:
        raise ValueError('scaled_dot_product_attention: dropout_p must be in [0, 1], got %r' % (dropout_p,))
    q, k, v = _bhsd(query), _bhsd(key), _bhsd(value)
    matmul = _ops.function('matmul')
    s = _ops.function('scale')(matmul(q, k, False, True), 1.0 / math.sqrt(query.shape[3]))
    if attn_mask is not None:
        if attn_mask.dtype == 'bool' or str(attn_mask.dtype).endswith('bool'):
            s = _ops.function('where')(attn_mask, s, _ops.function('full')([], float('-inf'), s.dtype))
        else:
            s = s + attn_mask
    if is_causal:
        sq, sk = s.shape[2], s.shape[3]
        s = s + _ops.function('triu')(_ops.function('full')([sq, sk], float('-inf'), s.dtype), 1)
    p = _ops.function('dropout')(_ops.function('softmax')(s, -1), dropout_p, None, True)
    return _bhsd(matmul(p, v))


def rms_norm(x, normalized_shape, weight=None, eps=1e-06, name=None):
    """x / sqrt(mean(x^2) + eps) * weight over the trailing dims named by normalized_shape."""
    if isinstance(normalized_shape, int):
        normalized_shape = [normalized_shape]
    k = len(normalized_shape)
    if k == 0 or k > x.ndim or list(x.shape[-k:]) != list(normalized_shape):
        raise ValueError('rms_norm: Given normalized_shape is %s, expected input with shape [*, %s], but got input shape %s'
                         % (list(normalized_shape), ', '.join(str(d) for d in normalized_shape), x.shape))
    return _ops.function('rms_norm')(x, weight, None, eps, x.ndim - k)[0]   # outputs: out, inv_var

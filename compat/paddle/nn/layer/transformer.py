"""MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer,
TransformerDecoder, Transformer with Paddle 2.6's constructors, sublayer names and forward
semantics (post-norm unless normalize_before; bool/int masks: False/0 = masked, as -1e9).
src/nn/layers_transformer.ts is the TypeScript twin."""
import collections

import paddle
from .common import Dropout, Linear
from .container import LayerList
from .layers import Layer
from .norm import LayerNorm


def _convert_attention_mask(attn_mask, dtype):
    """bool/int masks become (mask - 1) * 1e9 in `dtype`; float masks are added as they are."""
    if attn_mask is None:
        return None
    kind = attn_mask.dtype.name
    if kind == 'bool' or kind.startswith('int') or kind == 'uint8':
        return paddle.scale(attn_mask.astype(dtype), scale=1e9, bias=-1.0, bias_after_scale=False)
    return attn_mask


def _attr_list(who, attr, n):
    if not isinstance(attr, (list, tuple)):
        return [attr] * n
    if len(attr) == 1:
        return [attr[0]] * n
    if len(attr) != n:
        raise ValueError('%s: a list of param attrs must have length 1 or %d, got %d' % (who, n, len(attr)))
    return list(attr)


def _activation(who, name):
    f = getattr(paddle.nn.functional, name, None)
    if f is None:
        raise ValueError("%s: unknown activation '%s'" % (who, name))
    return f


def _keep(d):
    """A leading reshape dim: its size, or 0 ("copy the input's dim", as Paddle's own
    MultiHeadAttention writes it) when it is -1 (symbolic while tracing with InputSpec None dims)."""
    return 0 if d < 0 else d


class MultiHeadAttention(Layer):
    """q_proj / k_proj / v_proj / out_proj Linears; forward(query, key=None, value=None,
    attn_mask=None, cache=None) -> out, or (out, weights) with need_weights."""

    Cache = collections.namedtuple('Cache', ['k', 'v'])
    StaticCache = collections.namedtuple('StaticCache', ['k', 'v'])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None, need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        if not isinstance(embed_dim, int) or embed_dim <= 0:
            raise ValueError('MultiHeadAttention: embed_dim must be a positive integer, got %r' % (embed_dim,))
        if not isinstance(num_heads, int) or num_heads <= 0 or embed_dim % num_heads:
            raise ValueError('MultiHeadAttention: embed_dim %d must be divisible by num_heads %r' % (embed_dim, num_heads))
        if not 0 <= dropout <= 1:
            raise ValueError('MultiHeadAttention: dropout must be in [0, 1], got %r' % (dropout,))
        self.embed_dim, self.num_heads, self.dropout, self.need_weights = embed_dim, num_heads, dropout, need_weights
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x):
        b, l = _keep(x.shape[0]), _keep(x.shape[1])
        return paddle.transpose(paddle.reshape(x, [b, l, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def _check_kv(self, key, value):
        ks, vs = list(key.shape), list(value.shape)
        if len(ks) != 3 or ks[2] != self.kdim:
            raise ValueError('MultiHeadAttention: key must be [batch, len, %d], got %s' % (self.kdim, ks))
        if len(vs) != 3 or vs[2] != self.vdim or vs[:2] != ks[:2]:
            raise ValueError('MultiHeadAttention: value must be [%d, %d, %d], got %s' % (ks[0], ks[1], self.vdim, vs))

    def compute_kv(self, key, value):
        """Keys and values projected and split into heads: [B, heads, L, head_dim] each."""
        self._check_kv(key, value)
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key, value=None, type=None):
        """StaticCache: compute_kv(key, value) once (cross attention over a fixed memory); Cache:
        empty [B, heads, 0, head_dim] keys/values that grow at every call, or given (key, value) heads."""
        type = type or self.Cache
        if type is self.StaticCache:
            return self.StaticCache(*self.compute_kv(key, key if value is None else value))
        if value is None:
            z = paddle.zeros([key.shape[0], self.num_heads, 0, self.head_dim], key.dtype)
            return self.Cache(z, z)
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        qs = list(query.shape)
        if len(qs) != 3 or qs[2] != self.embed_dim:
            raise ValueError('MultiHeadAttention: query must be [batch, len, %d], got %s' % (self.embed_dim, qs))
        if cache is not None and not isinstance(cache, (self.Cache, self.StaticCache)):
            raise TypeError('MultiHeadAttention: cache must be a MultiHeadAttention.Cache or StaticCache (see gen_cache)')
        if not isinstance(cache, self.StaticCache) and key.shape[0] != qs[0]:
            raise ValueError('MultiHeadAttention: key batch %d does not match query batch %d' % (key.shape[0], qs[0]))
        sdpa = getattr(paddle.nn.functional, 'scaled_dot_product_attention', None)
        if cache is None and not self.need_weights and (not self.dropout or not self.training) and sdpa is not None:
            # The fused op takes [batch, len, heads, head_dim] as it is: no transposes, no [Lq, Lk] matrix.
            self._check_kv(key, value)
            b, h, d = _keep(qs[0]), self.num_heads, self.head_dim
            q = paddle.reshape(self.q_proj(query), [b, _keep(qs[1]), h, d])
            k = paddle.reshape(self.k_proj(key), [b, _keep(key.shape[1]), h, d])
            v = paddle.reshape(self.v_proj(value), [b, _keep(value.shape[1]), h, d])
            o = sdpa(q, k, v, _convert_attention_mask(attn_mask, q.dtype), 0.0, False, False)
            return self.out_proj(paddle.reshape(o, [b, _keep(qs[1]), self.embed_dim]))
        q = self._heads(self.q_proj(query))
        k, v = (cache.k, cache.v) if isinstance(cache, self.StaticCache) else self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = paddle.concat([cache.k, k], 2)
            v = paddle.concat([cache.v, v], 2)
            cache = self.Cache(k, v)
        product = paddle.matmul(paddle.scale(q, scale=self.head_dim ** -0.5), k, transpose_y=True)
        mask = _convert_attention_mask(attn_mask, product.dtype)
        if mask is not None:
            product = product + mask
        weights = paddle.nn.functional.softmax(product, -1)
        if self.dropout:
            weights = paddle.nn.functional.dropout(weights, self.dropout, training=self.training, mode='upscale_in_train')
        out = paddle.transpose(paddle.matmul(weights, v), [0, 2, 1, 3])
        out = self.out_proj(paddle.reshape(out, [_keep(qs[0]), _keep(qs[1]), self.embed_dim]))
        outs = [out] + ([weights] if self.need_weights else []) + ([cache] if cache is not None else [])
        return out if len(outs) == 1 else tuple(outs)

    def extra_repr(self):
        return 'embed_dim=%d, num_heads=%d, dropout=%s' % (self.embed_dim, self.num_heads, self.dropout)


class TransformerEncoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation='relu', attn_dropout=None, act_dropout=None,
                 normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5):
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout, activation=activation,
                            attn_dropout=attn_dropout, act_dropout=act_dropout, normalize_before=normalize_before,
                            weight_attr=weight_attr, bias_attr=bias_attr, layer_norm_eps=layer_norm_eps)
        super().__init__()
        self.normalize_before = normalize_before
        w, b = _attr_list('TransformerEncoderLayer', weight_attr, 2), _attr_list('TransformerEncoderLayer', bias_attr, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=dropout if attn_dropout is None else attn_dropout, weight_attr=w[0], bias_attr=b[0])
        self.linear1 = Linear(d_model, dim_feedforward, w[1], bias_attr=b[1])
        self.dropout = Dropout(dropout if act_dropout is None else act_dropout, mode='upscale_in_train')
        self.linear2 = Linear(dim_feedforward, d_model, w[1], bias_attr=b[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode='upscale_in_train')
        self.dropout2 = Dropout(dropout, mode='upscale_in_train')
        self.activation = _activation('TransformerEncoderLayer', activation)

    def forward(self, src, src_mask=None, cache=None):
        mask = _convert_attention_mask(src_mask, src.dtype)
        nb = self.normalize_before
        residual = src
        x = self.norm1(src) if nb else src
        if cache is None:
            attn = self.self_attn(x, x, x, mask)
        else:
            attn, cache = self.self_attn(x, x, x, mask, cache)
        x = residual + self.dropout1(attn)
        if not nb:
            x = self.norm1(x)
        residual = x
        if nb:
            x = self.norm2(x)
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        x = residual + self.dropout2(x)
        if not nb:
            x = self.norm2(x)
        return x if cache is None else (x, cache)

    def gen_cache(self, src):
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """layers.0 is encoder_layer itself; the others are fresh layers from its configuration."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError('TransformerEncoder: num_layers must be a positive integer, got %r' % (num_layers,))
        self.layers = LayerList([encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config) for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        mask = _convert_attention_mask(src_mask, src.dtype)
        if cache is not None and len(cache) != len(self.layers):
            raise ValueError('TransformerEncoder: cache must hold %d entries, got %d' % (len(self.layers), len(cache)))
        x, new_caches = src, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                x = layer(x, src_mask=mask)
            else:
                x, c = layer(x, src_mask=mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            x = self.norm(x)
        return x if cache is None else (x, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation='relu', attn_dropout=None, act_dropout=None,
                 normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5):
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout, activation=activation,
                            attn_dropout=attn_dropout, act_dropout=act_dropout, normalize_before=normalize_before,
                            weight_attr=weight_attr, bias_attr=bias_attr, layer_norm_eps=layer_norm_eps)
        super().__init__()
        self.normalize_before = normalize_before
        w, b = _attr_list('TransformerDecoderLayer', weight_attr, 3), _attr_list('TransformerDecoderLayer', bias_attr, 3)
        ad = dropout if attn_dropout is None else attn_dropout
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=ad, weight_attr=w[0], bias_attr=b[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=ad, weight_attr=w[1], bias_attr=b[1])
        self.linear1 = Linear(d_model, dim_feedforward, w[2], bias_attr=b[2])
        self.dropout = Dropout(dropout if act_dropout is None else act_dropout, mode='upscale_in_train')
        self.linear2 = Linear(dim_feedforward, d_model, w[2], bias_attr=b[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode='upscale_in_train')
        self.dropout2 = Dropout(dropout, mode='upscale_in_train')
        self.dropout3 = Dropout(dropout, mode='upscale_in_train')
        self.activation = _activation('TransformerDecoderLayer', activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tm, mm = _convert_attention_mask(tgt_mask, tgt.dtype), _convert_attention_mask(memory_mask, memory.dtype)
        if cache is not None and (not isinstance(cache, (list, tuple)) or len(cache) != 2):
            raise TypeError('TransformerDecoderLayer: cache must be (incremental Cache, StaticCache) (see gen_cache)')
        nb = self.normalize_before
        residual = tgt
        x = self.norm1(tgt) if nb else tgt
        if cache is None:
            attn = self.self_attn(x, x, x, tm)
        else:
            attn, inc = self.self_attn(x, x, x, tm, cache[0])
        x = residual + self.dropout1(attn)
        if not nb:
            x = self.norm1(x)
        residual = x
        if nb:
            x = self.norm2(x)
        cross = self.cross_attn(x, memory, memory, mm) if cache is None else self.cross_attn(x, memory, memory, mm, cache[1])[0]
        x = residual + self.dropout2(cross)
        if not nb:
            x = self.norm2(x)
        residual = x
        if nb:
            x = self.norm3(x)
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        x = residual + self.dropout3(x)
        if not nb:
            x = self.norm3(x)
        return x if cache is None else (x, (inc, cache[1]))

    def gen_cache(self, memory):
        return (self.self_attn.gen_cache(memory, type=self.self_attn.Cache),
                self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache))


class TransformerDecoder(Layer):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError('TransformerDecoder: num_layers must be a positive integer, got %r' % (num_layers,))
        self.layers = LayerList([decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config) for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tm, mm = _convert_attention_mask(tgt_mask, tgt.dtype), _convert_attention_mask(memory_mask, memory.dtype)
        if cache is not None and len(cache) != len(self.layers):
            raise ValueError('TransformerDecoder: cache must hold %d entries, got %d' % (len(self.layers), len(cache)))
        x, new_caches = tgt, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                x = layer(x, memory, tgt_mask=tm, memory_mask=mm)
            else:
                x, c = layer(x, memory, tm, mm, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            x = self.norm(x)
        return x if cache is None else (x, new_caches)

    def gen_cache(self, memory, do_zip=False):
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attrs(attr):
    """Transformer's weight_attr/bias_attr into the encoder's (2) and decoder's (3) lists, as Paddle."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[1]]
    if len(attr) == 3:
        return [attr[0], attr[2]], list(attr)
    raise ValueError('Transformer: weight_attr/bias_attr lists must have length 1, 2 or 3, got %d' % len(attr))


class Transformer(Layer):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048, dropout=0.1,
                 activation='relu', attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        (ew, dw), (eb, db) = _split_attrs(weight_attr), _split_attrs(bias_attr)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before, ew, eb)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before, dw, db)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        memory = self.encoder(src, src_mask=_convert_attention_mask(src_mask, src.dtype))
        return self.decoder(tgt, memory, tgt_mask=_convert_attention_mask(tgt_mask, tgt.dtype),
                            memory_mask=_convert_attention_mask(memory_mask, memory.dtype))

    def generate_square_subsequent_mask(self, length):
        """[length, length] float mask: 0 on and below the diagonal, -inf above."""
        if not isinstance(length, int) or length < 0:
            raise ValueError('generate_square_subsequent_mask: length must be a non-negative integer, got %r' % (length,))
        return paddle.triu(paddle.full([length, length], float('-inf'), 'float32'), 1)

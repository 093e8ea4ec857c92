"""Linear, Dropout, Flatten, Embedding, Identity."""
from .. import functional as F
from .. import initializer as I
from .layers import Layer


class Linear(Layer):
    """y = x @ weight + bias with weight [in_features, out_features] (Xavier-uniform) and bias
    [out_features] (zeros), Paddle's defaults. bias_attr=False drops the bias."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._in_features, self._out_features = in_features, out_features
        self.weight = self.create_parameter([in_features, out_features], weight_attr, is_bias=False)
        self.bias = self.create_parameter([out_features], bias_attr, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return 'in_features=%d, out_features=%d, dtype=%s' % (self._in_features, self._out_features, self._dtype)


class Dropout(Layer):
    def __init__(self, p=0.5, axis=None, mode='upscale_in_train', name=None):
        super().__init__()
        self.p, self.axis, self.mode = p, axis, mode

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self):
        return 'p=%s, axis=%s, mode=%s' % (self.p, self.axis, self.mode)


class Flatten(Layer):
    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):
        from ... import _ops
        f = _ops.public('flatten') or F.flatten
        return f(input, self.start_axis, self.stop_axis)


class Identity(Layer):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Embedding(Layer):
    """Lookup table [num_embeddings, embedding_dim], Xavier-uniform; the padding_idx row is zero."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
                 weight_attr=None, scale_grad_by_freq=False, name=None):
        super().__init__()
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            padding_idx = padding_idx + num_embeddings if padding_idx < 0 else padding_idx
            if not 0 <= padding_idx < num_embeddings:
                raise ValueError('Embedding: padding_idx must be within [-%d, %d)' % (num_embeddings, num_embeddings))
        self._padding_idx = padding_idx
        self._sparse = sparse
        self.weight = self.create_parameter([num_embeddings, embedding_dim], weight_attr, is_bias=False,
                                            default_initializer=I.XavierUniform())
        if padding_idx is not None:
            rows = self.weight.tolist()
            rows[padding_idx] = [0.0] * embedding_dim
            self.weight.set_value(rows)

    def forward(self, x):
        return F.embedding(x, self.weight, padding_idx=self._padding_idx, sparse=self._sparse)

    def extra_repr(self):
        s = '%d, %d' % (self._num_embeddings, self._embedding_dim)
        if self._padding_idx is not None:
            s += ', padding_idx=%d' % self._padding_idx
        return s + (', sparse=True' if self._sparse else '')

"""Eager parity cases: each function gets tensors built from the table in parity.ts and returns
a tensor or a list of tensors; the harness compares the result with the TypeScript API's."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


def add_broadcast(x, b):
    return x + b


def scalar_operands(x):
    return [x + 1, 10 - x, x * 2.5, 1.5 / x, x ** 2]


def int_promotion(n):
    return [n * 2.5, n + 1, n + True, n // 2, n % 3]


def true_division_of_ints(n, m):
    return n / m


def comparisons(x, y):
    return [x < y, x == y, x >= 1, x != y]


def unary(x):
    return [-x, abs(x)]


def zero_dim(s, x):
    return [s * 2, s + x, x.sum()]


def basic_indexing(x):
    return [x[1], x[:, 1:], x[..., None], x[::-1, ::2], x[-1, -1], x[None, 0]]


def reductions(x):
    return [x.sum(), x.mean(axis=0), paddle.max(x, axis=1, keepdim=True), paddle.argmax(x, axis=-1)]


def linear_layer(x, w, b):
    layer = nn.Linear(3, 2)
    layer.set_state_dict({'weight': w, 'bias': b})
    return layer(x)


def activations(x):
    return [F.relu(x), F.softmax(x, axis=-1), nn.GELU()(x)]


def conv_pool(x, w):
    conv = nn.Conv2D(1, 2, 3, padding=1, bias_attr=False)
    conv.weight.set_value(w)
    return nn.MaxPool2D(2)(conv(x))


def layer_norm(x):
    return nn.LayerNorm(3)(x)


def mlp(x, w1, b1, w2, b2):
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    model.set_state_dict({'0.weight': w1, '0.bias': b1, '2.weight': w2, '2.bias': b2})
    model.eval()
    return model(x)

"""Translator: layers (user layers inlined, built-in layers recorded), train/eval and structure
changes invalidate, and MLP / LeNet / a transformer block capture into one graph each."""
import os

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from sot_check import breaks, count, explain, same, t


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


class LeNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))

    def forward(self, x):
        x = self.features(x)
        x = paddle.flatten(x, 1)
        return self.fc(x)


class Block(nn.Layer):
    """A pre-norm transformer block (single head, to stay small)."""
    def __init__(self, d=16):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, 4 * d)
        self.ff2 = nn.Linear(4 * d, d)
        self.d = d

    def forward(self, x):
        h = self.ln1(x)
        q, k, v = self.q(h), self.k(h), self.v(h)
        att = F.softmax(paddle.matmul(q, k, transpose_y=True) / (self.d ** 0.5), axis=-1)
        x = x + self.o(paddle.matmul(att, v))
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))


def _compare(model, x, strict=True):
    paddle.seed(3)
    model.eval()
    want = model(x)
    sm = paddle.jit.to_static(model)
    got = sm(x)
    same(got, want)
    got2 = sm(x)
    same(got2, want)
    return sm.forward


def test_mlp_one_graph():
    paddle.seed(1)
    sf = _compare(MLP(), paddle.randn([3, 8]))
    e = explain(sf)
    assert e['graphCount'] == 1 and breaks(sf) == [], e
    assert count(sf) == 1


def test_lenet_one_graph():
    paddle.seed(2)
    sf = _compare(LeNet(), paddle.randn([2, 1, 28, 28]))
    e = explain(sf)
    assert e['graphCount'] == 1 and breaks(sf) == [], e


def test_transformer_block_one_graph():
    paddle.seed(4)
    sf = _compare(Block(), paddle.randn([2, 5, 16]))
    e = explain(sf)
    assert e['graphCount'] == 1 and breaks(sf) == [], e


def test_train_eval_switch_retranslates():
    paddle.seed(5)
    m = MLP()
    x = paddle.randn([2, 8])
    sm = paddle.jit.to_static(m)
    m.eval()
    a = sm(x)
    m.train()
    paddle.seed(9)
    b = sm(x)
    paddle.seed(9)
    b_eager = m._modules_forward(x) if hasattr(m, '_modules_forward') else None
    m.eval()
    same(sm(x), a)
    assert count(sm.forward) >= 2


def test_replacing_a_sublayer_is_seen():
    paddle.seed(6)
    m = MLP()
    m.eval()
    x = paddle.randn([2, 8])
    sm = paddle.jit.to_static(m)
    sm(x)
    m.fc2 = nn.Linear(16, 4)
    want = MLP.forward(m, x)
    same(sm(x), want)

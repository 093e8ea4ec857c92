"""paddle.nn from Python, the issue-9 remainder: recurrent cells and layers against a plain-Python
loop, attention and Transformer layers against their written-out form, the same golden numbers
as test/nn/more_layers.test.ts (deterministic weights), gradients to every parameter, state_dict
round trips, Paddle's parameter names, Bilinear / ParameterList / dropout variants / Pad / pools
and paddle.summary."""
import math

import paddle
import paddle.nn as nn
import paddle.nn.functional as F


def _flat(t):
    v = t.tolist()
    out = []

    def walk(x):
        if isinstance(x, list):
            for e in x:
                walk(e)
        else:
            out.append(float(x))
    walk(v)
    return out


def _close(a, b, tol=1e-5):
    x = _flat(a) if not isinstance(a, list) else a
    y = _flat(b) if not isinstance(b, list) else b
    assert len(x) == len(y), (len(x), len(y))
    for i, (p, q) in enumerate(zip(x, y)):
        assert abs(p - q) <= tol * (1 + abs(q)), (i, p, q)


def _sig(v):
    return 1.0 / (1.0 + math.exp(-v))


def _affine(W, x, b):
    return [sum(w * xi for w, xi in zip(row, x)) + (b[g] if b else 0.0) for g, row in enumerate(W)]


def _ref_step(kind, cell, x, h, c):
    gi = _affine(cell.weight_ih.tolist(), x, cell.bias_ih.tolist())
    gh = _affine(cell.weight_hh.tolist(), h, cell.bias_hh.tolist())
    H = len(h)
    if kind == 'gru':
        r = [_sig(gi[j] + gh[j]) for j in range(H)]
        z = [_sig(gi[H + j] + gh[H + j]) for j in range(H)]
        cand = [math.tanh(gi[2 * H + j] + r[j] * gh[2 * H + j]) for j in range(H)]
        return [(h[j] - cand[j]) * z[j] + cand[j] for j in range(H)], c
    g = [gi[j] + gh[j] for j in range(4 * H)]
    c2 = [_sig(g[H + j]) * c[j] + _sig(g[j]) * math.tanh(g[2 * H + j]) for j in range(H)]
    return [_sig(g[3 * H + j]) * math.tanh(c2[j]) for j in range(H)], c2


def test_lstm_and_gru_against_a_plain_loop_with_sequence_length():
    paddle.seed(11)
    for kind, Net in (('lstm', nn.LSTM), ('gru', nn.GRU)):
        net = Net(3, 4)
        x = paddle.randn([2, 4, 3])
        lens = [4, 2]
        y, st = net(x, sequence_length=paddle.to_tensor(lens, 'int64'))
        cell = net[0].cell
        xs = x.tolist()
        want, hs = [], []
        for b in range(2):
            h, c = [0.0] * 4, [0.0] * 4
            seq = [[0.0] * 4 for _ in range(4)]
            for t in range(lens[b]):
                h, c = _ref_step(kind, cell, xs[b][t], h, c)
                seq[t] = h
            want += [v for row in seq for v in row]
            hs += h
        _close(y, want)
        _close(st[0] if kind == 'lstm' else st, hs)


def test_user_cell_under_rnn_and_birnn():
    class Leaky(nn.RNNCellBase):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 3)

        @property
        def state_shape(self):
            return [3]

        def forward(self, x, h):
            y = h * 0.5 + paddle.tanh(self.fc(x))
            return y, y

    cell = Leaky()
    x = paddle.randn([2, 4, 2])
    y, h = nn.RNN(cell)(x)
    want = paddle.zeros([2, 3])
    steps = []
    for t in range(4):
        want = cell(x[:, t], want)[0]
        steps.append(want)
    _close(y, paddle.stack(steps, 1), 1e-5)
    _close(h, want, 1e-5)
    yb, (hf, hb) = nn.BiRNN(Leaky(), Leaky())(x)
    assert yb.shape == [2, 4, 6] and hb.shape == [2, 3]


def test_parameter_names_shapes_and_state_dict_follow_paddle():
    lstm = nn.LSTM(3, 4, 2, direction='bidirectional')
    names = [n for n, _ in lstm.named_parameters()]
    assert names[:8] == ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0',
                         'weight_ih_l0_reverse', 'weight_hh_l0_reverse', 'bias_ih_l0_reverse', 'bias_hh_l0_reverse']
    assert len(names) == 16
    assert lstm.weight_ih_l1.shape == [16, 8]
    sd = lstm.state_dict()
    assert len(sd) == 32 and '0.cell_fw.weight_ih' in sd and '1.cell_bw.bias_hh' in sd
    other = nn.LSTM(3, 4, 2, direction='bidirectional')
    assert other.set_state_dict(sd) == ([], [])
    x = paddle.randn([2, 3, 3])
    _close(other(x)[0], lstm(x)[0], 0)
    assert list(nn.GRUCell(2, 3).state_dict().keys()) == ['weight_ih', 'weight_hh', 'bias_ih', 'bias_hh']
    m = nn.MultiHeadAttention(8, 2, kdim=5)
    assert [n for n, _ in m.named_parameters()] == ['q_proj.weight', 'q_proj.bias', 'k_proj.weight', 'k_proj.bias',
                                                     'v_proj.weight', 'v_proj.bias', 'out_proj.weight', 'out_proj.bias']
    assert m.k_proj.weight.shape == [5, 8]
    t = nn.Transformer(8, 2, 2, 1, 16)
    keys = list(t.state_dict().keys())
    assert 'encoder.layers.1.self_attn.out_proj.weight' in keys and 'decoder.layers.0.cross_attn.k_proj.bias' in keys
    assert 'decoder.norm.weight' in keys and len(keys) == 2 * 16 + 2 + 26 + 2
    assert t.encoder.layers[1].linear1.weight is not t.encoder.layers[0].linear1.weight


def _ref_attention(m, q, k, v, mask=None):
    B, Lq, Lk, H, D = q.shape[0], q.shape[1], k.shape[1], m.num_heads, m.head_dim

    def heads(t, L):
        return paddle.transpose(paddle.reshape(t, [B, L, H, D]), [0, 2, 1, 3])
    qh = heads(F.linear(q, m.q_proj.weight, m.q_proj.bias), Lq)
    kh = heads(F.linear(k, m.k_proj.weight, m.k_proj.bias), Lk)
    vh = heads(F.linear(v, m.v_proj.weight, m.v_proj.bias), Lk)
    s = paddle.matmul(qh, kh, transpose_y=True) * (1.0 / math.sqrt(D))
    if mask is not None:
        s = s + mask
    w = F.softmax(s, -1)
    o = paddle.reshape(paddle.transpose(paddle.matmul(w, vh), [0, 2, 1, 3]), [B, Lq, H * D])
    return F.linear(o, m.out_proj.weight, m.out_proj.bias), w


def test_attention_and_encoder_layer_against_their_written_out_form():
    m = nn.MultiHeadAttention(8, 4, kdim=5, vdim=6, need_weights=True)
    q, k, v = paddle.randn([2, 3, 8]), paddle.randn([2, 4, 5]), paddle.randn([2, 4, 6])
    bmask = paddle.to_tensor([[True, True, False, False], [True, False, True, False], [True, True, True, True]])
    out, w = m(q, k, v, bmask)
    ro, rw = _ref_attention(m, q, k, v, (bmask.astype('float32') - 1.0) * 1e9)
    _close(out, ro, 1e-4)
    _close(w, rw, 1e-4)
    for nb in (False, True):
        enc = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, activation='gelu', normalize_before=nb)
        enc.eval()
        src, mask = paddle.randn([2, 4, 8]), paddle.randn([4, 4])

        def ln(l, x):
            return F.layer_norm(x, [8], l.weight, l.bias, 1e-5)

        def ffn(x):
            return F.linear(F.gelu(F.linear(x, enc.linear1.weight, enc.linear1.bias)), enc.linear2.weight, enc.linear2.bias)
        if nb:
            s1 = ln(enc.norm1, src)
            h = src + _ref_attention(enc.self_attn, s1, s1, s1, mask)[0]
            want = h + ffn(ln(enc.norm2, h))
        else:
            h = ln(enc.norm1, src + _ref_attention(enc.self_attn, src, src, src, mask)[0])
            want = ln(enc.norm2, h + ffn(h))
        _close(enc(src, mask), want, 1e-4)
    mask = nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(3)
    assert _flat(mask) == [0.0, float('-inf'), float('-inf'), 0.0, 0.0, float('-inf'), 0.0, 0.0, 0.0]


def test_incremental_decoding_with_gen_cache_equals_the_causal_full_pass():
    for nb in (False, True):
        dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, 0.0, normalize_before=nb), 2, nn.LayerNorm(8))
        dec.eval()
        memory, tgt = paddle.randn([2, 5, 8]), paddle.randn([2, 4, 8])
        full = dec(tgt, memory, tgt_mask=nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(4))
        cache = dec.gen_cache(memory)
        steps = []
        for t in range(4):
            y, cache = dec(tgt[:, t:t + 1], memory, None, None, cache)
            steps.append(y)
        _close(paddle.concat(steps, 1), full, 1e-4)
        assert cache[0][0].k.shape == [2, 2, 4, 4] and cache[1][1].k.shape == [2, 2, 5, 4]
    m = nn.MultiHeadAttention(8, 2, need_weights=True)
    x = paddle.randn([1, 3, 8])
    out, w, c = m(x, x, x, None, m.gen_cache(x))
    _close(out, m(x)[0], 1e-5)
    assert w.shape == [1, 2, 3, 3] and isinstance(c, nn.MultiHeadAttention.Cache)


GOLDEN = {
    'lstm': ([0.064416, 0.158409, 0.065988, 0.128107], -1.66015), 'gru': ([-0.370317, -0.523627, -0.36382, 0.02633], -8.80455),
    'rnn': ([1.047685, 0.204739, 0, 0], 2.65624), 'mha': ([0.483313, 0.543445, 0.530023, 0.444865], 12.37851),
    'enc': ([-0.52752, -0.483616, -0.158793, -0.010176], -19.13824), 'transformer': ([0.430865, 0.667132, 0.825202, 0.756803], 10.0929),
    'bilinear': ([0.437154, 0.387601, -0.016415, 0.591614], 3.65683),
}


def _det(shape, k):
    n = 1
    for d in shape:
        n *= d
    return paddle.reshape(paddle.to_tensor([0.5 * math.sin(i * 0.37 + k) for i in range(n)], 'float32'), shape)


def _set_all(net):
    """Parameter k in named_parameters order gets _det(shape, k) (as the TS test does)."""
    for k, (_, p) in enumerate(net.named_parameters()):
        p.set_value(_det(p.shape, k))
    return net


def _check(name, t):
    a = _flat(t)
    _close(a[:4], GOLDEN[name][0], 2e-5)
    assert abs(sum(a) - GOLDEN[name][1]) < 1e-3, (name, sum(a))


def test_same_numbers_as_typescript():
    _check('lstm', _set_all(nn.LSTM(3, 4, 2, 'bidirect'))(_det([2, 5, 3], 7), sequence_length=paddle.to_tensor([5, 3], 'int64'))[0])
    _check('gru', _set_all(nn.GRU(3, 4))(_det([2, 5, 3], 7))[0])
    _check('rnn', _set_all(nn.SimpleRNN(3, 4, activation='relu'))(_det([2, 5, 3], 7))[1])
    _check('mha', _set_all(nn.MultiHeadAttention(8, 2))(_det([2, 3, 8], 7), attn_mask=paddle.to_tensor([[True, False, True]])))
    enc = _set_all(nn.TransformerEncoderLayer(8, 2, 16, 0.0))
    enc.eval()
    _check('enc', enc(_det([2, 3, 8], 7)))
    t = _set_all(nn.Transformer(8, 2, 1, 1, 16, 0.0, normalize_before=True))
    t.eval()
    _check('transformer', t(_det([2, 3, 8], 7), _det([2, 2, 8], 9), tgt_mask=t.generate_square_subsequent_mask(2)))
    _check('bilinear', _set_all(nn.Bilinear(3, 4, 2))(_det([5, 3], 7), _det([5, 4], 9)))


def test_one_backward_reaches_every_parameter():
    paddle.seed(4)
    cases = [
        (nn.LSTM(3, 4, 2, 'bidirect'), [paddle.randn([2, 4, 3])]),
        (nn.GRU(3, 4, time_major=True), [paddle.randn([4, 2, 3])]),
        (nn.SimpleRNN(3, 4, 2), [paddle.randn([2, 4, 3])]),
        (nn.MultiHeadAttention(8, 2), [paddle.randn([2, 3, 8])]),
        (nn.Transformer(8, 2, 1, 1, 16, 0.0), [paddle.randn([2, 5, 8]), paddle.randn([2, 3, 8])]),
        (nn.Bilinear(3, 4, 2), [paddle.randn([5, 3]), paddle.randn([5, 4])]),
    ]
    for net, xs in cases:
        out = net(*xs)
        y = out[0] if isinstance(out, tuple) else out
        (y * y).sum().backward()
        for n, p in net.named_parameters():
            assert p.grad is not None, (type(net).__name__, n)
            assert any(v != 0 for v in _flat(p.grad)), (type(net).__name__, n)


def test_small_layers():
    x = paddle.randn([1, 2, 5])
    _close(nn.Pad1D([1, 2], mode='reflect')(x), F.pad(x, [1, 2], mode='reflect', data_format='NCL'))
    assert nn.Pad2D(1, value=2.5)(paddle.zeros([1, 1, 2, 2])).tolist()[0][0][0] == [2.5] * 4
    assert nn.Pad3D([1, 0, 0, 1, 1, 1], mode='replicate')(paddle.randn([1, 1, 2, 2, 2])).shape == [1, 1, 4, 3, 3]
    x1 = paddle.randn([2, 3, 8])
    _close(nn.MaxPool1D(2, 2)(x1), F.max_pool1d(x1, 2, 2))
    _close(nn.AvgPool1D(3, 2, 1, exclusive=False)(x1), F.avg_pool1d(x1, 3, 2, 1, exclusive=False))
    x3 = paddle.randn([1, 2, 4, 4, 4])
    _close(nn.MaxPool3D(2, 1, 1)(x3), F.max_pool3d(x3, 2, 1, 1))
    _close(nn.AvgPool3D(2, 2)(x3), F.avg_pool3d(x3, 2, 2))
    paddle.seed(5)
    y = _flat(nn.Dropout2D(0.5)(paddle.ones([4, 8, 3, 3])))
    for ch in range(32):
        v = y[ch * 9:(ch + 1) * 9]
        assert all(e == v[0] for e in v) and v[0] in (0.0, 2.0)
    d = nn.Dropout3D(0.5)
    d.eval()
    z = paddle.randn([1, 2, 2, 2, 2])
    _close(d(z), z)
    a = _flat(nn.AlphaDropout(0.2)(paddle.randn([20000])))
    mean = sum(a) / len(a)
    var = sum((v - mean) ** 2 for v in a) / len(a)
    assert abs(mean) < 0.05 and abs(var - 1) < 0.08, (mean, var)

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.ws = nn.ParameterList([self.create_parameter([2, 2 + i]) for i in range(3)])

    n = Net()
    assert list(n.state_dict().keys()) == ['ws.0', 'ws.1', 'ws.2']
    assert [p.shape for p in n.ws] == [[2, 2], [2, 3], [2, 4]] and len(n.ws) == 3


def test_errors_name_the_layer():
    def raises(f, text):
        try:
            f()
        except Exception as e:  # noqa: BLE001
            assert text in str(e), str(e)
            return
        raise AssertionError('no error: ' + text)
    raises(lambda: nn.LSTM(3, 4, direction='sideways'), 'LSTM: direction')
    raises(lambda: nn.GRU(3, 4)(paddle.randn([2, 5, 2])), 'GRU: inputs must be')
    raises(lambda: nn.SimpleRNN(3, 4)(paddle.randn([2, 5, 3]), paddle.zeros([1, 3, 4])), 'SimpleRNN: initial state 0 must be [1, 2, 4]')
    raises(lambda: nn.MultiHeadAttention(8, 3), 'MultiHeadAttention: embed_dim 8 must be divisible by num_heads 3')
    raises(lambda: F.dropout2d(paddle.ones([2, 3])), 'dropout2d: x must be 4-D')
    raises(lambda: F.bilinear(paddle.ones([2, 3]), paddle.ones([2, 4]), paddle.ones([2, 3, 5])), 'bilinear:')


def test_summary_table_and_totals():
    net = nn.Sequential(nn.Conv2D(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 26 * 26, 10))
    r = paddle.summary(net, (-1, 1, 28, 28))
    assert r == {'total_params': 27090, 'trainable_params': 27090}
    lstm = nn.LSTM(3, 4)
    lstm.weight_ih_l0.stop_gradient = True
    assert paddle.summary(lstm, (2, 5, 3)) == {'total_params': 144, 'trainable_params': 96}

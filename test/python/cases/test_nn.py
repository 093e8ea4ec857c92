"""paddle.nn: Layer mechanics, default initializers, and the first layers."""
import copy
import math
import unittest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.nn import initializer as I


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 2, bias_attr=False)
        self.register_buffer('steps', paddle.to_tensor([0]))
        self.register_buffer('scratch', paddle.to_tensor([0.0]), persistable=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _needs(*ops):
    missing = [o for o in ops if not hasattr(paddle, o)]
    if missing:
        raise unittest.SkipTest('registry lacks %s' % ', '.join(missing))


class TestLayer(unittest.TestCase):
    def test_parameters_and_names(self):
        m = Block()
        names = [n for n, _ in m.named_parameters()]
        self.assertEqual(names, ['fc1.weight', 'fc1.bias', 'fc2.weight'])
        self.assertEqual([p.shape for p in m.parameters()], [[4, 3], [3], [3, 2]])
        for p in m.parameters():
            self.assertIsInstance(p, paddle.Tensor)
            self.assertFalse(p.stop_gradient)
            self.assertTrue(p.trainable)
        self.assertTrue(m.fc1.weight.name.endswith('.w_0'))
        self.assertTrue(m.fc1.bias.name.endswith('.b_0'))

    def test_sublayers_and_modes(self):
        m = Block()
        self.assertEqual([n for n, _ in m.named_sublayers()], ['fc1', 'act', 'fc2'])
        self.assertTrue(m.training and m.fc1.training)
        m.eval()
        self.assertFalse(m.training or m.fc1.training or m.act.training)
        m.train()
        self.assertTrue(m.fc2.training)

    def test_state_dict_round_trip(self):
        a, b = Block(), Block()
        sd = a.state_dict()
        # Paddle's order: the layer's own parameters, its buffers, then sublayers
        self.assertEqual(list(sd), ['steps', 'fc1.weight', 'fc1.bias', 'fc2.weight'])
        missing, unexpected = b.set_state_dict(sd)
        self.assertEqual((missing, unexpected), ([], []))
        for k in sd:
            self.assertEqual(b.state_dict()[k].tolist(), sd[k].tolist())
        self.assertFalse(b.fc1.weight.stop_gradient)
        missing, unexpected = b.set_state_dict({'fc1.bias': [1.0, 2.0, 3.0], 'other': paddle.to_tensor(1)})
        self.assertIn('fc1.weight', missing)
        self.assertEqual(unexpected, ['other'])
        self.assertEqual(b.fc1.bias.tolist(), [1.0, 2.0, 3.0])
        with self.assertRaises(ValueError):
            b.set_state_dict({'fc1.bias': [1.0]})

    def test_attribute_routing(self):
        m = Block()
        self.assertIs(m.steps, m._buffers['steps'])
        with self.assertRaises(AttributeError):
            m.nope
        m.extra = nn.Linear(2, 2)
        self.assertIn('extra', m._sub_layers)
        p = m.add_parameter('alpha', paddle.create_parameter([1], 'float32'))
        self.assertIs(m.alpha, p)
        with self.assertRaises(RuntimeError):
            class Bad(nn.Layer):
                def __init__(self):
                    self.fc = nn.Linear(1, 1)
            Bad()

    def test_hooks(self):
        _needs('matmul')
        m = nn.Linear(2, 2)
        seen = []
        h = m.register_forward_post_hook(lambda layer, inp, out: seen.append(out.shape))
        m(paddle.to_tensor([[1.0, 2.0]]))
        h.remove()
        m(paddle.to_tensor([[1.0, 2.0]]))
        self.assertEqual(seen, [[1, 2]])

    def test_repr(self):
        m = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.assertEqual(repr(m), 'Sequential(\n  (0): Linear(in_features=4, out_features=8, dtype=float32)\n  (1): ReLU()\n)')
        self.assertTrue(repr(m[0].weight).startswith('Parameter containing:\nTensor(shape=[4, 8], dtype=float32'))

    def test_deepcopy(self):
        m = nn.Linear(2, 2)
        c = copy.deepcopy(m)
        self.assertEqual(c.weight.tolist(), m.weight.tolist())
        self.assertIsNot(c.weight, m.weight)


class TestInit(unittest.TestCase):
    def test_linear_xavier_uniform_and_zero_bias(self):
        paddle.seed(3)
        m = nn.Linear(30, 20)
        limit = math.sqrt(6.0 / (30 + 20))
        w = [v for row in m.weight.tolist() for v in row]
        self.assertTrue(all(-limit <= v <= limit for v in w))
        self.assertGreater(max(w), limit * 0.8)
        self.assertLess(min(w), -limit * 0.8)
        self.assertEqual(m.bias.tolist(), [0.0] * 20)

    def test_seed_reproduces_parameters(self):
        paddle.seed(5)
        a = nn.Linear(3, 3).weight.tolist()
        paddle.seed(5)
        b = nn.Linear(3, 3).weight.tolist()
        self.assertEqual(a, b)

    def test_conv2d_default_init(self):
        paddle.seed(1)
        conv = nn.Conv2D(4, 8, 3)
        self.assertEqual(conv.weight.shape, [8, 4, 3, 3])
        self.assertEqual(conv.bias.tolist(), [0.0] * 8)
        w = [v for a in conv.weight.tolist() for b in a for c in b for v in c]
        std = math.sqrt(sum(v * v for v in w) / len(w))
        self.assertAlmostEqual(std, math.sqrt(2.0 / 36), delta=0.05)

    def test_initializers(self):
        self.assertEqual(I.Constant(2.0).make([2], 'float32').tolist(), [2.0, 2.0])
        u = I.Uniform(-0.5, 0.5).make([100], 'float32').tolist()
        self.assertTrue(all(-0.5 <= v < 0.5 for v in u))
        p = paddle.create_parameter([3], 'float32', default_initializer=I.Assign([1.0, 2.0, 3.0]))
        self.assertEqual(p.tolist(), [1.0, 2.0, 3.0])
        lin = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=I.Constant(0.5)))
        self.assertEqual(lin.weight.tolist(), [[0.5, 0.5], [0.5, 0.5]])


class TestLayers(unittest.TestCase):
    def test_linear_forward(self):
        _needs('matmul')
        m = nn.Linear(2, 3)
        m.weight.set_value([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        m.bias.set_value([0.5, 0.5, 0.5])
        self.assertEqual(m(paddle.to_tensor([[1.0, 1.0]])).tolist(), [[5.5, 7.5, 9.5]])
        self.assertEqual(F.linear(paddle.to_tensor([[1.0, 0.0]]), m.weight).tolist(), [[1.0, 2.0, 3.0]])

    def test_sequential_and_layerlist(self):
        seq = nn.Sequential(nn.ReLU(), nn.Flatten())
        self.assertEqual(len(seq), 2)
        self.assertIsInstance(seq[1], nn.Flatten)
        x = paddle.to_tensor([[[-1.0, 2.0], [3.0, -4.0]]])
        self.assertEqual(seq(x).tolist(), [[0.0, 2.0, 3.0, 0.0]])
        ll = nn.LayerList([nn.ReLU(), nn.GELU()])
        ll.append(nn.Dropout(0.5))
        self.assertEqual(len(ll), 3)
        self.assertEqual([type(l).__name__ for l in ll], ['ReLU', 'GELU', 'Dropout'])
        named = nn.Sequential(('a', nn.ReLU()), ('b', nn.Identity()))
        self.assertIsInstance(named['b'], nn.Identity)

    def test_dropout_eval_is_identity(self):
        d = nn.Dropout(0.9)
        d.eval()
        x = paddle.to_tensor([1.0, 2.0, 3.0])
        self.assertEqual(d(x).tolist(), [1.0, 2.0, 3.0])
        d.train()
        y = d(paddle.ones([1000])).tolist()
        self.assertTrue(set(y) <= {0.0, 10.0} and 0 < y.count(0.0) < 1000)

    def test_gelu_and_relu(self):
        x = paddle.to_tensor([-1.0, 0.0, 1.0])
        self.assertEqual(nn.ReLU()(x).tolist(), [0.0, 0.0, 1.0])
        g = nn.GELU()(x).tolist()
        self.assertAlmostEqual(g[2], 0.8413447, places=5)
        self.assertAlmostEqual(nn.GELU(approximate=True)(x).tolist()[2], 0.8411920, places=5)

    def test_batchnorm2d_inference(self):
        bn = nn.BatchNorm2D(2)
        self.assertEqual([n for n, _ in bn.named_parameters()], ['weight', 'bias'])
        self.assertEqual(list(bn.state_dict()), ['weight', 'bias', '_mean', '_variance'])
        bn.eval()
        bn.set_state_dict({'_mean': paddle.to_tensor([1.0, 2.0]), '_variance': paddle.to_tensor([4.0, 1.0]),
                           'weight': paddle.to_tensor([2.0, 1.0]), 'bias': paddle.to_tensor([0.0, 1.0])})
        x = paddle.to_tensor([[[[3.0]], [[4.0]]]])
        y = bn(x).tolist()
        self.assertAlmostEqual(y[0][0][0][0], 2.0 * (3.0 - 1.0) / math.sqrt(4.0 + 1e-5), places=5)
        self.assertAlmostEqual(y[0][1][0][0], (4.0 - 2.0) / math.sqrt(1.0 + 1e-5) + 1.0, places=5)

    def test_layer_norm(self):
        ln = nn.LayerNorm(4)
        y = ln(paddle.to_tensor([[1.0, 2.0, 3.0, 4.0]])).tolist()[0]
        self.assertAlmostEqual(sum(y), 0.0, places=5)
        self.assertAlmostEqual(y[3], 1.5 / math.sqrt(1.25 + 1e-5), places=5)

    def test_embedding(self):
        emb = nn.Embedding(5, 3, padding_idx=0)
        self.assertEqual(emb.weight.shape, [5, 3])
        self.assertEqual(emb.weight.tolist()[0], [0.0, 0.0, 0.0])
        out = emb(paddle.to_tensor([[0, 2], [4, 4]]))
        self.assertEqual(out.shape, [2, 2, 3])
        self.assertEqual(out.tolist()[1][0], emb.weight.tolist()[4])

    def test_conv_and_pool_shapes(self):
        conv = nn.Conv2D(3, 4, 3, stride=1, padding=1)
        pool = nn.MaxPool2D(2)
        x = paddle.ones([2, 3, 8, 8])
        self.assertEqual(pool(conv(x)).shape, [2, 4, 4, 4])
        flat = nn.Flatten()(pool(conv(x)))
        self.assertEqual(flat.shape, [2, 64])

    def test_to_dtype(self):
        m = nn.Linear(2, 2)
        m.to(dtype='float64')
        self.assertEqual(m.weight.dtype, paddle.float64)
        self.assertFalse(m.weight.stop_gradient)

"""paddle.static in Python: programs built with the eager API in static mode (Variables record
pd ops through the bridge), printed as PIR, and run by paddle.static.Executor; results equal
eager execution, including a batch dim given as None run at two batch sizes.

Static mode is process-wide: every test turns it off again, whatever happens."""
import math
import unittest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.nn import initializer as I


def _batch(n, width, seed):
    return [[math.sin(seed + 0.7 * i + 1.3 * j) for j in range(width)] for i in range(n)]


def _close(test, got, want, tol=1e-5):
    test.assertEqual(len(got), len(want))
    for g, w in zip(got, want):
        if isinstance(w, list):
            _close(test, g, w, tol)
        else:
            test.assertLessEqual(abs(g - w), tol + tol * abs(w), (g, w))


class StaticTest(unittest.TestCase):
    def setUp(self):
        paddle.enable_static()

    def tearDown(self):
        paddle.disable_static()

    def test_modes(self):
        self.assertFalse(paddle.in_dynamic_mode())
        paddle.disable_static()
        self.assertTrue(paddle.in_dynamic_mode())
        self.assertTrue(paddle.framework.in_dynamic_mode())
        paddle.enable_static()
        self.assertFalse(paddle.framework.in_dynamic_mode())

    def test_mlp_matches_eager_at_two_batch_sizes(self):
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data('x', [None, 4], 'float32')
            w1 = paddle.static.create_parameter([4, 8], 'float32')
            b1 = paddle.static.create_parameter([8], 'float32', is_bias=True, default_initializer=I.Uniform(-0.5, 0.5))
            w2 = paddle.static.create_parameter([8, 3], 'float32')
            b2 = paddle.static.create_parameter([3], 'float32', is_bias=True, default_initializer=I.Uniform(-0.5, 0.5))
            y = F.softmax(paddle.matmul(F.relu(paddle.matmul(x, w1) + b1), w2) + b2)
        text = str(main)
        self.assertIn('"pd_op.data" () {name:"x", shape:shape[s0, 4], dtype:float32} : () -> tensor<s0x4xf32>', text)
        self.assertIn('"builtin.parameter" () {parameter_name:"%s"} : () -> tensor<4x8xf32>' % w1.name, text)
        for op in ('matmul', 'add', 'relu', 'softmax'):
            self.assertIn('"pd_op.%s"' % op, text)
        self.assertIn('-> tensor<s0x3xf32>', text)
        self.assertEqual((x.shape, y.shape, y.dtype), ([-1, 4], [-1, 3], paddle.float32))
        self.assertTrue(w1.name.startswith('create_parameter_'))

        exe = paddle.static.Executor(paddle.CPUPlace())
        self.assertEqual(exe.run(startup), [])
        for n in (2, 5):
            xs = _batch(n, 4, n)
            out, w1v, b1v, w2v, b2v = exe.run(main, feed={'x': xs}, fetch_list=[y, w1, b1, w2, b2], return_numpy=False)
            self.assertIsInstance(out, paddle.Tensor)
            arr, = exe.run(main, feed={'x': xs}, fetch_list=[y])   # Paddle's default: numpy arrays
            self.assertEqual((type(arr).__name__, arr.shape), ('ndarray', (n, 3)))
            _close(self, arr.tolist(), out.tolist())
            self.assertEqual(out.shape, [n, 3])
            paddle.disable_static()
            want = F.softmax(paddle.matmul(F.relu(paddle.matmul(paddle.to_tensor(xs), w1v) + b1v), w2v) + b2v)
            paddle.enable_static()
            _close(self, out.tolist(), want.tolist())
        # the parameter's tensor is in the global scope under its name
        w1s = paddle.static.global_scope().find_var(w1.name).get_tensor()
        self.assertEqual(w1s.tolist(), w1v.tolist())
        self.assertIsNone(paddle.static.global_scope().find_var('no_such_parameter'))

    def test_layers_build_programs_with_their_eager_parameters(self):
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            fc1, fc2 = nn.Linear(4, 6), nn.Linear(6, 2)
            x = paddle.static.data('x', [None, 4])
            y = fc2(F.relu(fc1(x)))
        self.assertEqual(str(main).count('"builtin.parameter"'), 4)
        xs = _batch(3, 4, 1)
        out, = paddle.static.Executor().run(main, feed={'x': xs}, fetch_list=[y])
        paddle.disable_static()
        want = fc2(F.relu(fc1(paddle.to_tensor(xs))))
        paddle.enable_static()
        _close(self, out.tolist(), want.tolist())

    def test_variable_operators_methods_and_fetch_by_name(self):
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [2, 3])
            a = (x * 2 + 1) / 2
            b = 1 - x
            c = (-x).abs().sum(-1)
            d = x.astype('float64').mean()
            e = x @ paddle.to_tensor([[1.0], [0.0], [2.0]])
            f = x[0]
        self.assertEqual(repr(x), 'Variable(name=x, shape=[2, 3], dtype=paddle.float32)')
        self.assertEqual(d.dtype, paddle.float64)
        self.assertTrue(a.name.endswith('.tmp_0'))
        xs = [[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]]
        ra, rb, rc, rd, re_, rf = paddle.static.Executor().run(main, feed={'x': xs}, fetch_list=[a.name, b, c, d, e, f])
        _close(self, ra.tolist(), [[1.5, -1.5, 3.5], [1.0, 0.5, -0.5]])
        _close(self, rb.tolist(), [[0.0, 3.0, -2.0], [0.5, 1.0, 2.0]])
        _close(self, rc.tolist(), [6.0, 1.5])
        self.assertAlmostEqual(rd.item(), 0.25)
        _close(self, re_.tolist(), [[7.0], [-1.5]])
        _close(self, rf.tolist(), [1.0, -2.0, 3.0])

    def test_default_main_program_and_clone_for_test(self):
        x = paddle.static.data('dm_x', [None, 8])
        y = F.dropout(x, 0.5)
        main = paddle.static.default_main_program()
        self.assertIs(main, paddle.static.default_main_program())
        self.assertIn('"pd_op.dropout"', str(main))
        test = main.clone(for_test=True)
        ones = [[1.0] * 8] * 2
        out, = paddle.static.Executor().run(test, feed={'dm_x': ones}, fetch_list=[y.name])
        self.assertEqual(out.tolist(), ones)
        out, = paddle.static.Executor().run(feed={'dm_x': ones}, fetch_list=[y])
        self.assertTrue(all(v in (0.0, 2.0) for row in out.tolist() for v in row))

    def test_errors(self):
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [None, 2])
            y = x + 1
        exe = paddle.static.Executor()
        with self.assertRaisesRegex(Exception, "feed 'x' is missing"):
            exe.run(main, feed={}, fetch_list=[y])
        with self.assertRaisesRegex(Exception, "feed 'z' is not a paddle.static.data"):
            exe.run(main, feed={'x': [[1.0, 2.0]], 'z': [1.0]}, fetch_list=[y])
        with self.assertRaisesRegex(ValueError, r"feed 'x' has shape \[1, 3\]"):
            exe.run(main, feed={'x': [[1.0, 2.0, 3.0]]}, fetch_list=[y])
        with self.assertRaisesRegex(TypeError, 'no value while the program is being built'):
            y.tolist()
        with self.assertRaisesRegex(TypeError, 'fetch_list'):
            exe.run(main, feed={'x': [[1.0, 2.0]]}, fetch_list=[3])
        other = paddle.static.Program()
        with self.assertRaisesRegex(Exception, 'value of another program'):
            with paddle.static.program_guard(other):
                x * 2

    def test_repeated_runs_do_not_leak(self):
        from paddle import _bridge
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [None, 4])
            y = F.relu(x * 2.0)
        exe = paddle.static.Executor()
        xs = paddle.to_tensor(_batch(4, 4, 3))
        exe.run(main, feed={'x': xs}, fetch_list=[y])
        _bridge.flush_frees()
        before = (_bridge.live_handles(), _bridge.live_tensors())
        for _ in range(200):
            out, = exe.run(main, feed={'x': xs}, fetch_list=[y])
        del out
        _bridge.flush_frees()
        self.assertEqual((_bridge.live_handles(), _bridge.live_tensors()), before)


if __name__ == '__main__':
    unittest.main()

"""paddle.static.append_backward / gradients in Python: program autodiff against eager autograd."""
import unittest

import paddle
import paddle.nn.functional as F

X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
W = [[0.5, -1.0], [2.0, 0.25], [-0.75, 1.0]]


def _close(test, got, want, tol=1e-5):
    if isinstance(want, list):
        test.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            _close(test, g, w, tol)
    else:
        test.assertLessEqual(abs(got - want), tol + tol * abs(want), (got, want))


class StaticAutodiffTest(unittest.TestCase):
    def setUp(self):
        paddle.enable_static()

    def tearDown(self):
        paddle.disable_static()

    def _eager(self):
        paddle.disable_static()
        try:
            x = paddle.to_tensor(X, stop_gradient=False)
            w = paddle.to_tensor(W, stop_gradient=False)
            loss = paddle.sum(F.sigmoid(paddle.matmul(x, w)))
            gx, gw = paddle.grad(loss, [x, w])
            return gx.tolist(), gw.tolist()
        finally:
            paddle.enable_static()

    def test_append_backward_matches_eager(self):
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [2, 3], 'float32')
            w = paddle.static.create_parameter([3, 2], 'float32', default_initializer=paddle.nn.initializer.Assign(W))
            loss = paddle.sum(F.sigmoid(paddle.matmul(x, w)))
            self.assertTrue(x.stop_gradient)
            self.assertFalse(w.stop_gradient)
            x.stop_gradient = False
            pg = paddle.static.append_backward(loss)
        self.assertEqual(len(pg), 1)
        self.assertEqual(pg[0][0].name, w.name)
        self.assertEqual(pg[0][1].name, w.name + '@GRAD')
        gw, gx = paddle.static.Executor().run(main, feed={'x': X}, fetch_list=[pg[0][1], 'x@GRAD'])
        want_x, want_w = self._eager()
        _close(self, gx.tolist(), want_x)
        _close(self, gw.tolist(), want_w)

    def test_gradients(self):
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [2, 3], 'float32')
            z = paddle.static.data('z', [2, 3], 'float32')
            y = paddle.tanh(x) * 2.0
            gx, gz = paddle.static.gradients([y], [x, z])
        self.assertIsNone(gz)
        out, = paddle.static.Executor().run(main, feed={'x': X}, fetch_list=[gx])
        import math
        _close(self, out.tolist(), [[2 * (1 - math.tanh(v) ** 2) for v in row] for row in X])

    def test_cond_and_while_loop_with_backward(self):
        import math
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data('x', [3], 'float32')
            n = paddle.static.data('n', [1], 'int64')
            x.stop_gradient = False
            y = paddle.static.nn.cond(paddle.sum(x) > 0, lambda: paddle.exp(x), lambda: x * 3.0)
            i0 = paddle.full([1], 0, 'int64')
            i, s = paddle.static.nn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, paddle.sin(s)], [i0, y])
            loss = paddle.sum(s)
            gx, = paddle.static.gradients([loss], [x])
        self.assertIn('"pd_op.if"', str(main))
        self.assertIn('"pd_op.while"', str(main))
        exe = paddle.static.Executor()
        for xv, nv in (([0.2, -0.1, 0.4], 2), ([-0.5, -0.1, 0.2], 1)):
            out, g = exe.run(main, feed={'x': xv, 'n': [nv]}, fetch_list=[s, gx])
            # reference by hand: y = exp(x) or 3x, then sin applied nv times
            pos = sum(xv) > 0
            ys = [math.exp(v) if pos else 3 * v for v in xv]
            dys = [math.exp(v) if pos else 3.0 for v in xv]
            for _ in range(nv):
                dys = [d * math.cos(v) for d, v in zip(dys, ys)]
                ys = [math.sin(v) for v in ys]
            _close(self, out.tolist(), ys)
            _close(self, g.tolist(), dys)


if __name__ == '__main__':
    unittest.main()

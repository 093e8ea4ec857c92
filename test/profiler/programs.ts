// Small PIR programs the viewer tests draw.
import { paddle } from '../../src/paddle.js';
import { Builder, type Program, type Value } from '../../src/pir/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';

type T = Tensor;

/** paddle.static: a cond (exp / scale) feeding a while loop, then relu — if/while regions to nest. */
export function controlFlowProgram(): Program {
  const prog = new paddle.static.Program();
  paddle.static.program_guard(prog, () => {
    const x = paddle.static.data('x', [null, 3], 'float32') as T;
    const n = paddle.static.data('n', [1], 'int64') as T;
    const y = paddle.static.nn.cond(paddle.greater_than(paddle.sum(x), paddle.to_tensor(0)) as T,
      () => paddle.exp(x), () => paddle.scale(x, -2, 1)) as T;
    const [, s] = paddle.static.nn.while_loop(
      (i: T) => paddle.less_than(i, n),
      (i: T, s: T) => [paddle.add(i, paddle.to_tensor([1], 'int64')), paddle.add(paddle.multiply(s, paddle.to_tensor(0.5)), y)],
      [paddle.to_tensor([0], 'int64'), paddle.zeros_like(y)]) as Value[];
    new Builder(prog.pir).fetch(paddle.nn.functional.relu(paddle.add(s as unknown as T, x)) as unknown as Value, 'out', 0);
  });
  return prog.pir;
}

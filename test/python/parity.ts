// The eager parity table: the same operations written in Python (parity_cases.py, run inside
// Pyodide through the bridge) and with the TypeScript API; results must be equal (values,
// shapes and dtypes). Inputs are [nested data, dtype] pairs built the same way on both sides.
import { callOp, getOp } from '../../src/ops/index.js';
import { paddle } from '../../src/paddle.js';
import { to_tensor } from '../../src/tensor/creation.js';
import { Tensor } from '../../src/tensor/tensor.js';

type Data = number | boolean | Data[];
export interface ParityCase {
  /** Function name in parity_cases.py. */
  name: string;
  inputs: [Data, string][];
  /** Registry ops the case uses; it is skipped (reported) until they exist. */
  needs?: string[];
  ts: (p: Record<string, any>, ...xs: Tensor[]) => Tensor | Tensor[];
}
export type ParityResult = { shape: number[]; dtype: string; data: unknown } | ParityResult[];

const X = [[1, -2, 3], [4, 5, -6]];
const Y = [[2, -2, 1], [4, 0, 7]];
const F = (p: Record<string, any>) => p.nn.functional;

export const PARITY_CASES: ParityCase[] = [
  { name: 'add_broadcast', inputs: [[X, 'float32'], [[10, 20, 30], 'float32']], needs: ['add'], ts: (p, x, b) => p.add(x, b) },
  {
    name: 'scalar_operands', inputs: [[X, 'float32']], needs: ['add', 'subtract', 'multiply', 'divide', 'elementwise_pow'],
    ts: (p, x) => [p.add(x, 1), p.subtract(10, x), p.multiply(x, 2.5), p.divide(1.5, x), p.pow(x, 2)],
  },
  {
    name: 'int_promotion', inputs: [[X, 'int64']], needs: ['multiply', 'add', 'floor_divide', 'remainder', 'full'],
    // a Python float is float32 in the promotion; JS cannot tell 2.5 from an int, but 2.5 is not integral
    ts: (p, n) => [p.multiply(n, 2.5), p.add(n, 1), p.add(n, p.full([], 1, 'int64')), p.floor_divide(n, 2), p.remainder(n, 3)],
  },
  {
    name: 'true_division_of_ints', inputs: [[X, 'int64'], [Y.map((r) => r.map((v) => v || 1)), 'int32']], needs: ['divide', 'cast'],
    ts: (p, n, m) => p.divide(n.astype('float32'), m.astype('float32')),
  },
  {
    name: 'comparisons', inputs: [[X, 'float32'], [Y, 'float32']], needs: ['less_than', 'equal', 'greater_equal', 'not_equal'],
    ts: (p, x, y) => [p.less_than(x, y), p.equal(x, y), p.greater_equal(x, 1), p.not_equal(x, y)],
  },
  { name: 'unary', inputs: [[X, 'float32']], needs: ['neg', 'abs'], ts: (p, x) => [p.neg(x), p.abs(x)] },
  {
    name: 'zero_dim', inputs: [[3.5, 'float32'], [X, 'float32']], needs: ['multiply', 'add', 'sum'],
    ts: (p, s, x) => [p.multiply(s, 2), p.add(s, x), p.sum(x)],
  },
  {
    name: 'basic_indexing', inputs: [[X, 'float32']], needs: ['slice', 'strided_slice', 'squeeze', 'unsqueeze'],
    ts: (p, x) => [
      p.squeeze(p.slice(x, [0], [1], [2]), [0]),
      p.slice(x, [1], [1], [3]),
      p.unsqueeze(x, [2]),
      p.strided_slice(x, [0, 1], [1, 0], [-1, 3], [-1, 2]),
      p.squeeze(p.slice(x, [0, 1], [1, 2], [2, 3]), [0, 1]),
      p.unsqueeze(p.squeeze(p.slice(x, [0], [0], [1]), [0]), [0]),
    ],
  },
  {
    name: 'reductions', inputs: [[X, 'float32']], needs: ['sum', 'mean', 'max', 'argmax'],
    ts: (p, x) => [p.sum(x), p.mean(x, 0), p.max(x, 1, true), p.argmax(x, -1)],
  },
  {
    name: 'linear_layer', inputs: [[X, 'float32'], [[[0.5, -1], [2, 0.25], [-0.5, 1]], 'float32'], [[0.1, -0.2], 'float32']],
    needs: ['matmul', 'add'], ts: (p, x, w, b) => p.add(p.matmul(x, w), b),
  },
  {
    name: 'activations', inputs: [[X, 'float32']], needs: ['relu', 'softmax', 'gelu'],
    ts: (p, x) => [F(p).relu(x), F(p).softmax(x, -1), F(p).gelu(x)],
  },
  {
    name: 'conv_pool',
    inputs: [[[[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]], 'float32'],
      [[[[[1, 0, -1], [0, 1, 0], [-1, 0, 1]]], [[[0.5, 0.5, 0.5], [0, 0, 0], [-0.5, -0.5, -0.5]]]], 'float32']],
    needs: ['conv2d', 'max_pool2d'],
    ts: (p, x, w) => first(F(p).max_pool2d(F(p).conv2d(x, w, null, 1, 1), 2)),
  },
  {
    name: 'layer_norm', inputs: [[X, 'float32']], needs: ['layer_norm', 'full'],
    ts: (p, x) => layerNorm(x, p.full([3], 1, 'float32'), p.full([3], 0, 'float32'), 1e-5, 1),
  },
  {
    name: 'mlp', needs: ['matmul', 'add', 'relu'],
    inputs: [[X, 'float32'], [[[0.1, 0.2, 0.3, 0.4], [-0.5, 0.6, -0.7, 0.8], [0.9, -1, 1.1, -1.2]], 'float32'], [[0.01, 0.02, 0.03, 0.04], 'float32'],
      [[[1, -1], [0.5, 0.5], [-0.25, 2], [0, 1]], 'float32'], [[0.5, -0.5], 'float32']],
    ts: (p, x, w1, b1, w2, b2) => p.add(p.matmul(F(p).relu(p.add(p.matmul(x, w1), b1)), w2), b2),
  },
];

// layer_norm is an internal op (no public name): call it through the registry.
function layerNorm(...a: unknown[]): Tensor {
  return (callOp(getOp('layer_norm'), a) as Tensor[])[0];  // outputs: out, mean, variance
}

/** max_pool2d has a variable output count, so the TS API answers [out] (nn.MaxPool2D unwraps it). */
const first = (r: Tensor | Tensor[]): Tensor => (Array.isArray(r) ? r[0] : r);

function clean(v: unknown): unknown {
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (Array.isArray(v)) return v.map(clean);
  return v;
}

function describe(r: Tensor | Tensor[]): ParityResult {
  if (Array.isArray(r)) return r.map(describe) as ParityResult;
  return { shape: [...r.shape], dtype: r.dtype, data: clean(r.tolist()) };
}

/** The TS result of a case, described like the Python side (testing.py `_describe`). */
export function runTsCase(c: ParityCase): ParityResult {
  const xs = c.inputs.map(([d, dt]) => to_tensor(d as never, dt));
  return describe(c.ts(paddle, ...xs));
}

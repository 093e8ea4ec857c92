// Records of the fused ops of issue 8's fusion passes (src/ops/defs/fused_ops.ts). The random
// fused_dropout_add is checked against the ops it replaces, dropout then add, replayed from the
// generator state it reports (seed_offset); its backward the same way (dropout of out_grad).
import { expect } from 'vitest';
import { runOp } from '../../../src/ops/index.js';
import { seed, set_rng_state } from '../../../src/ops/defs/random.js';
import { scope, type Tensor } from '../../../src/tensor/tensor.js';
import { addRecords } from '../op_db.js';
import { type NDArray, nd, rand } from '../ref.js';
import { tensorOf } from '../harness.js';
import { reproducible } from './random.js';

type Attrs = Record<string, unknown>;
const values = (t: Tensor): number[] => t.dataSync().map(Number);

/** dropout(x) + y with the generator set to (seed, offset), through the unfused kernels. */
function unfusedDropoutAdd(x: NDArray, y: NDArray, so: number[], a: Attrs): number[] {
  return scope(() => {
    set_rng_state([{ seed: BigInt.asUintN(64, BigInt(so[0])), offset: BigInt.asUintN(64, BigInt(so[1])) }]);
    const d = runOp('dropout', [tensorOf(x)], { p: a.p ?? 0.5, training: a.training ?? true, mode: a.mode ?? 'upscale_in_train' })[0] as Tensor;
    return values(runOp('add', [d, tensorOf(y)])[0] as Tensor);
  });
}

addRecords({
  op: 'fused_dropout_add',
  samples: [
    { inputs: [rand([40, 50], 'float32', 1), rand([40, 50], 'float32', 2)], attrs: { p: 0.3 } },
    { inputs: [rand([7, 9], 'float64', 3), rand([9], 'float64', 4)], attrs: { p: 0.5, mode: 'downscale_in_infer' }, note: 'y broadcasts' },
    { inputs: [rand([13, 11], 'float32', 5), rand([13, 11], 'float32', 6)], attrs: { p: 0.4 }, strided: true },
    { inputs: [rand([6, 5], 'float32', 7), rand([6, 5], 'float32', 8)], attrs: { p: 1 }, note: 'p=1: y' },
    { inputs: [rand([6, 5], 'float32', 9), rand([1, 5], 'float32', 10)], attrs: { p: 0.3, training: false, mode: 'downscale_in_infer' }, note: 'eval downscale' },
    { inputs: [rand([6, 5], 'float32', 11), rand([6, 5], 'float32', 12)], attrs: { p: 0 }, note: 'p=0: x + y, no draw' },
    { inputs: [rand([], 'float32', 13), rand([], 'float32', 14)], attrs: { p: 0.5 }, note: '0-dim' },
    { inputs: [rand([0, 4], 'float32', 15), rand([4], 'float32', 16)], attrs: { p: 0.5 }, note: 'empty' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, y, out, so] = all as NDArray[];
    expect(out.shape).toEqual(x.shape);
    expect(so.shape).toEqual([2]);
    // The reported state replays the draw (a seed from std::random_device may exceed 2^53,
    // which NDArray data cannot hold: then the op runs again from a known seed).
    let got = out.data, state = so.data;
    if (!so.data.every((v) => Number.isSafeInteger(v))) {
      seed(99);
      [got, state] = scope(() => (runOp('fused_dropout_add', [tensorOf(x), tensorOf(y)], attrs) as Tensor[]).map(values));
    }
    expect(got, 'fused_dropout_add equals dropout + add under the same generator state').toEqual(unfusedDropoutAdd(x, y, state, attrs));
    const p = (attrs.p ?? 0.5) as number;
    if (p > 0 && p < 1 && (attrs.training ?? true) && x.data.length > 100) reproducible('fused_dropout_add', [x, y], attrs);
    return [out, so];
  },
  bad: [
    { inputs: [rand([3]), rand([3])], attrs: { p: 1.5 }, error: /fused_dropout_add: p argument should between 0 and 1/ },
    { inputs: [rand([3]), rand([3])], attrs: { mode: 'x' }, error: /fused_dropout_add: mode argument should be/ },
    { inputs: [rand([3]), rand([2, 3])], error: /fused_dropout_add: y \[2, 3\] must broadcast to x \[3\]/ },
    { inputs: [rand([3]), rand([4])], error: /fused_dropout_add/ },
    { inputs: [rand([3], 'int64'), rand([3], 'int64')], error: /fused_dropout_add: expected a floating-point x/ },
    { inputs: [rand([3]), rand([3], 'float64')], error: /fused_dropout_add: x and y must share a dtype/ },
  ],
});

addRecords({
  op: 'fused_dropout_add_grad',
  samples: [
    { inputs: [nd([2], [2024, 3], 'int64'), rand([30, 20], 'float32', 1)], attrs: { p: 0.3 } },
    { inputs: [nd([2], [7, 0], 'int64'), rand([5, 6], 'float64', 2)], attrs: { p: 0.6, mode: 'downscale_in_infer' }, strided: false },
    { inputs: [nd([2], [0, 0], 'int64'), rand([4, 3], 'float32', 3)], attrs: { p: 0.3, training: false, mode: 'downscale_in_infer' }, note: 'eval' },
    { inputs: [nd([2], [1, 1], 'int64'), rand([], 'float32', 4)], attrs: { p: 0.5 }, note: '0-dim' },
    { inputs: [nd([2], [1, 1], 'int64'), rand([0, 3], 'float32', 5)], attrs: { p: 0.5 }, note: 'empty' },
  ],
  check: 'custom',
  // The backward is dropout of out_grad under the forward's stream.
  ref: (all, attrs) => {
    const [so, g, got] = all as NDArray[];
    const want = scope(() => {
      set_rng_state([{ seed: BigInt(so.data[0]), offset: BigInt(so.data[1]) }]);
      return values(runOp('dropout', [tensorOf(g)], { p: attrs.p ?? 0.5, training: attrs.training ?? true, mode: attrs.mode ?? 'upscale_in_train' })[0] as Tensor);
    });
    want.forEach((w, i) => expect(got.data[i]).toBeCloseTo(w, 5));
    expect(got.shape).toEqual(g.shape);
    return got;
  },
  bad: [
    { inputs: [nd([3], [1, 2, 3], 'int64'), rand([3])], error: /fused_dropout_add_grad: seed_offset must be an int64 tensor of shape \[2\]/ },
    { inputs: [rand([2]), rand([3])], error: /fused_dropout_add_grad: seed_offset must be an int64/ },
    { inputs: [nd([2], [1, 2], 'int64'), rand([3], 'int32')], error: /fused_dropout_add_grad: expected a floating-point out_grad/ },
    { inputs: [nd([2], [1, 2], 'int64'), rand([3])], attrs: { p: -1 }, error: /fused_dropout_add_grad: p argument/ },
  ],
});

function refLinearGrad([x, g, dw, db]: (NDArray | null)[], a: Attrs): NDArray[] {
  const X = x!, G = g!;
  const k = X.shape[X.shape.length - 1], n = G.shape[G.shape.length - 1];
  const rows = k > 0 ? X.data.length / k : G.data.length / Math.max(n, 1);
  const w: number[] = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < n; j++) {
    let s = dw ? dw.data[i * n + j] : 0;
    for (let r = 0; r < rows; r++) s += X.data[r * k + i] * G.data[r * n + j];
    w.push(s);
  }
  const hasBias = a.has_bias ?? true;
  const b: number[] = [];
  if (hasBias) for (let j = 0; j < n; j++) {
    let s = db ? db.data[j] : 0;
    for (let r = 0; r < rows; r++) s += G.data[r * n + j];
    b.push(s);
  }
  return [nd([k, n], w, X.dtype), nd([hasBias ? n : 0], b, X.dtype)];
}

addRecords({
  op: 'fused_linear_param_grad_add',
  samples: [
    { inputs: [rand([5, 3], 'float32', 1), rand([5, 4], 'float32', 2), rand([3, 4], 'float32', 3), rand([4], 'float32', 4)] },
    { inputs: [rand([2, 3, 4], 'float32', 5), rand([2, 3, 6], 'float32', 6), rand([4, 6], 'float32', 7), null], note: '3-D, no dbias' },
    { inputs: [rand([6, 4], 'float32', 8), rand([6, 5], 'float32', 9), null, null], attrs: { has_bias: false }, note: 'no accumulators, no bias' },
    { inputs: [rand([33, 17], 'float32', 10), rand([33, 65], 'float32', 11), rand([17, 65], 'float32', 12), null], note: 'odd sizes' },
    { inputs: [rand([4, 3], 'float32', 13), rand([4, 5], 'float32', 14), rand([3, 5], 'float32', 15), rand([5], 'float32', 16)], strided: true },
    { inputs: [rand([0, 3], 'float32', 17), rand([0, 2], 'float32', 18), rand([3, 2], 'float32', 19), rand([2], 'float32', 20)], note: 'no rows: the accumulators' },
  ],
  ref: (ins, a) => refLinearGrad(ins as (NDArray | null)[], a),
  dtypes: ['float64'],
  atol: 1e-4, rtol: 1e-4,
  bad: [
    { inputs: [rand([5, 3]), rand([4, 4]), null, null], error: /fused_linear_param_grad_add: x and dout must have the same rank >= 2 and agree/ },
    { inputs: [rand([5]), rand([5]), null, null], error: /fused_linear_param_grad_add: x and dout must have the same rank >= 2/ },
    { inputs: [rand([5, 3]), rand([5, 4]), rand([4, 3]), null], error: /fused_linear_param_grad_add: dweight must have shape \[3, 4\]/ },
    { inputs: [rand([5, 3]), rand([5, 4]), null, rand([3])], error: /fused_linear_param_grad_add: dbias must have shape \[4\]/ },
    { inputs: [rand([5, 3]), rand([5, 4], 'float64'), null, null], error: /fused_linear_param_grad_add: inputs must share a dtype/ },
    { inputs: [rand([5, 3], 'int32'), rand([5, 4], 'int32'), null, null], error: /fused_linear_param_grad_add: unsupported dtype int32/ },
    { inputs: [rand([5, 3]), rand([5, 4]), null, rand([4])], attrs: { has_bias: false }, error: /fused_linear_param_grad_add: dbias is given but has_bias is false/ },
  ],
});

function refCausalSoftmax([x]: NDArray[]): NDArray {
  const sk = x.shape[x.shape.length - 1], sq = x.shape[x.shape.length - 2];
  const out = new Array<number>(x.data.length).fill(0);
  for (let r = 0; r * sk < x.data.length; r++) {
    const i = r % sq, kept = Math.min(i + 1, sk);
    const row = x.data.slice(r * sk, r * sk + kept);
    const mx = Math.max(...row);
    const e = row.map((v) => Math.exp(v - mx));
    const s = e.reduce((p, q) => p + q, 0);
    e.forEach((v, j) => { out[r * sk + j] = v / s; });
  }
  return nd([...x.shape], out, x.dtype);
}

addRecords({
  op: 'fused_softmax_mask_upper_triangle',
  samples: [
    { inputs: [rand([2, 3, 5, 5], 'float32', 1, -4, 4)] },
    { inputs: [rand([4, 4], 'float32', 2)], note: '2-D' },
    { inputs: [rand([2, 3, 6], 'float32', 3)], note: 'fewer keys than queries' },
    { inputs: [rand([2, 6, 3], 'float32', 4)], strided: true, note: 'more keys than queries, strided' },
    { inputs: [rand([1, 2, 17, 17], 'float32', 5, -30, 30)], note: 'odd length, wide range' },
    { inputs: [rand([0, 4, 4], 'float32', 6)], note: 'empty' },
  ],
  ref: (ins) => refCausalSoftmax(ins as NDArray[]),
  dtypes: ['float64', 'float16'],
  atol: 1e-6, rtol: 1e-5,
  bad: [
    { inputs: [rand([4])], error: /fused_softmax_mask_upper_triangle: x must have rank >= 2/ },
    { inputs: [rand([], 'float32')], error: /fused_softmax_mask_upper_triangle: x must have rank >= 2/ },
    { inputs: [rand([3, 3], 'int32')], error: /fused_softmax_mask_upper_triangle: expected a floating-point input/ },
  ],
});

function refResidualLayerNorm([x, bias, res, w, nb]: (NDArray | null)[], a: Attrs): NDArray[] {
  const X = x!, begin = (a.begin_norm_axis ?? 1) as number, eps = (a.epsilon ?? 1e-5) as number, alpha = (a.residual_alpha ?? 1) as number;
  const right = X.shape.slice(begin).reduce((p, q) => p * q, 1), left = X.shape.slice(0, begin).reduce((p, q) => p * q, 1);
  const f = X.dtype === 'float32' ? Math.fround : (v: number) => v;
  const sum = X.data.map((v, i) => f(f(v + (bias ? bias.data[i % right] : 0)) + alpha * (res ? res.data[i] : 0)));
  const out: number[] = [], mean: number[] = [], vr: number[] = [];
  for (let r = 0; r < left; r++) {
    const row = sum.slice(r * right, (r + 1) * right);
    const m = row.reduce((p, q) => p + q, 0) / right;
    const v = row.reduce((p, q) => p + (q - m) ** 2, 0) / right;
    row.forEach((s, i) => out.push(((s - m) / Math.sqrt(v + eps)) * (w ? w.data[i] : 1) + (nb ? nb.data[i] : 0)));
    mean.push(m); vr.push(v);
  }
  const st = X.dtype === 'float64' ? 'float64' : 'float32';
  return [nd([...X.shape], out, X.dtype), nd([...X.shape], sum, X.dtype), nd([left], mean, st), nd([left], vr, st)];
}

addRecords({
  op: 'fused_bias_residual_layernorm',
  samples: [
    { inputs: [rand([4, 16], 'float32', 1), null, rand([4, 16], 'float32', 2), rand([16], 'float32', 3), rand([16], 'float32', 4)] },
    { inputs: [rand([2, 3, 8], 'float32', 5), rand([8], 'float32', 6), rand([2, 3, 8], 'float32', 7), null, null], attrs: { begin_norm_axis: 2, residual_alpha: 0.5, epsilon: 1e-3 }, note: 'bias, alpha, no affine' },
    { inputs: [rand([3, 2, 5], 'float32', 8), null, rand([3, 2, 5], 'float32', 9), rand([2, 5], 'float32', 10), rand([10], 'float32', 11)], attrs: { begin_norm_axis: 1 }, note: 'two normalized dims' },
    { inputs: [rand([5, 33], 'float32', 12), null, rand([5, 33], 'float32', 13), rand([33], 'float32', 14), rand([33], 'float32', 15)], strided: true, note: 'odd width, strided' },
    { inputs: [rand([0, 4], 'float32', 16), null, rand([0, 4], 'float32', 17), null, null], note: 'empty' },
    { inputs: [rand([6], 'float32', 18), null, null, null, null], attrs: { begin_norm_axis: 0 }, note: 'x alone, 1-D' },
  ],
  ref: (ins, a) => refResidualLayerNorm(ins as (NDArray | null)[], a),
  dtypes: ['float64'],
  atol: 1e-5, rtol: 1e-4,
  bad: [
    { inputs: [rand([4, 16]), null, rand([4, 8]), null, null], error: /fused_bias_residual_layernorm: residual of shape \[4, 8\] does not match x \[4, 16\]/ },
    { inputs: [rand([4, 16]), null, null, rand([8]), null], error: /fused_bias_residual_layernorm: norm_weight of shape \[8\] does not match/ },
    { inputs: [rand([4, 16]), null, null, null, null], attrs: { begin_norm_axis: 2 }, error: /fused_bias_residual_layernorm: begin_norm_axis 2 is out of range/ },
    { inputs: [rand([4, 16]), null, rand([4, 16], 'float64'), null, null], error: /fused_bias_residual_layernorm: residual dtype float64 differs/ },
    { inputs: [rand([4, 16], 'int32'), null, null, null, null], error: /fused_bias_residual_layernorm: expected a floating-point x/ },
    { inputs: [rand([], 'float32'), null, null, null, null], attrs: { begin_norm_axis: 0 }, error: /fused_bias_residual_layernorm: begin_norm_axis 0 is out of range/ },
    { inputs: [rand([4, 16]), null, null, null, null], attrs: { epsilon: -1 }, error: /fused_bias_residual_layernorm: epsilon must be finite and >= 0/ },
  ],
});

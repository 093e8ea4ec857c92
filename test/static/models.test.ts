// Whole models built with paddle.static in TypeScript equal their eager versions: an MLP, a
// LeNet (conv2d, max_pool2d, flatten, linear) and a transformer block (layer_norm, matmul,
// softmax, gelu). Each model is one function written against the public API and called on
// eager tensors and on paddle.static values alike; the batch dim is symbolic (None) and the
// program runs at two batch sizes from one compiled plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/index.js';
import { staticExecutorStats } from '../../src/static/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose } from '../executor/helpers.js';

type T = any;  // an eager Tensor or a paddle.static value: the model code cannot tell
const F = paddle.nn.functional;

const linear = (x: T, w: T, b: T): T => paddle.add(paddle.matmul(x, w), b);
const layerNorm = (x: T, g: T, b: T): T => runOp('layer_norm', [x, g, b], { epsilon: 1e-5, begin_norm_axis: x.shape.length - 1 })[0];

function mlp(x: T, p: Record<string, T>): T {
  return F.softmax(linear(F.relu(linear(x, p.w1, p.b1)), p.w2, p.b2));
}

function lenet(x: T, p: Record<string, T>): T {
  let h = F.max_pool2d(F.relu(F.conv2d(x, p.c1w, p.c1b, { padding: 2 })), 2, 2);
  h = F.max_pool2d(F.relu(F.conv2d(h, p.c2w, p.c2b)), 2, 2);
  h = paddle.flatten(h, 1);
  h = F.relu(linear(h, p.f1w, p.f1b));
  h = F.relu(linear(h, p.f2w, p.f2b));
  return linear(h, p.f3w, p.f3b);
}

const SEQ = 6, WIDTH = 16, HEADS = 2, HEAD = WIDTH / HEADS;
function block(x: T, p: Record<string, T>): T {
  const heads = (t: T): T => paddle.transpose(paddle.reshape(t, [0, SEQ, HEADS, HEAD]), [0, 2, 1, 3]);
  const h = layerNorm(x, p.ln1g, p.ln1b);
  const q = heads(linear(h, p.wq, p.bq)), k = heads(linear(h, p.wk, p.bk)), v = heads(linear(h, p.wv, p.bv));
  const att = F.softmax(paddle.scale(paddle.matmul(q, k, false, true), 1 / Math.sqrt(HEAD)));
  const ctx = paddle.reshape(paddle.transpose(paddle.matmul(att, v), [0, 2, 1, 3]), [0, SEQ, WIDTH]);
  const x1 = paddle.add(x, linear(ctx, p.wo, p.bo));
  const m = linear(F.gelu(linear(layerNorm(x1, p.ln2g, p.ln2b), p.m1w, p.m1b)), p.m2w, p.m2b);
  return paddle.add(x1, m);
}

const MLP_PARAMS: Record<string, number[]> = { w1: [16, 32], b1: [32], w2: [32, 10], b2: [10] };
const LENET_PARAMS: Record<string, number[]> = {
  c1w: [6, 1, 5, 5], c1b: [6], c2w: [16, 6, 5, 5], c2b: [16], f1w: [400, 120], f1b: [120], f2w: [120, 84], f2b: [84], f3w: [84, 10], f3b: [10],
};
const BLOCK_PARAMS: Record<string, number[]> = {
  ln1g: [WIDTH], ln1b: [WIDTH], wq: [WIDTH, WIDTH], bq: [WIDTH], wk: [WIDTH, WIDTH], bk: [WIDTH], wv: [WIDTH, WIDTH], bv: [WIDTH],
  wo: [WIDTH, WIDTH], bo: [WIDTH], ln2g: [WIDTH], ln2b: [WIDTH], m1w: [WIDTH, 4 * WIDTH], m1b: [4 * WIDTH], m2w: [4 * WIDTH, WIDTH], m2b: [WIDTH],
};

/** Builds `model` into a new program (params from create_parameter), returns the program, output and param tensors. */
function buildWithCreateParameter(model: (x: T, p: Record<string, T>) => T, inShape: (number | null)[], specs: Record<string, number[]>, tag: string) {
  const main = new paddle.static.Program();
  const out = paddle.static.program_guard(main, () => {
    const x = paddle.static.data('x', inShape, 'float32');
    const p: Record<string, T> = {};
    for (const [n, shape] of Object.entries(specs)) {
      const bias = shape.length === 1;
      // layer-norm gains start at 1 as in Paddle; other vectors (biases) at 0 would hide bias bugs, so randomize them
      p[n] = paddle.static.create_parameter(shape, 'float32', { name: `${tag}.${n}`, is_bias: bias, default_initializer: bias ? (s: number[]) => paddle.uniform(s, 'float32', -0.5, 0.5) : undefined });
    }
    return model(x, p);
  });
  const eagerParams: Record<string, Tensor> = {};
  for (const n of Object.keys(specs)) eagerParams[n] = paddle.static.global_scope().find_var(`${tag}.${n}`).get_tensor();
  return { main, out, eagerParams };
}

/** Runs the program at each batch size and compares with eager; one plan serves every batch. */
function checkAtBatches(main: T, out: T, eagerFn: (x: Tensor) => Tensor, inTail: number[], batches: number[], tol = 1e-5): void {
  const exe = new paddle.static.Executor();
  const compiled = staticExecutorStats.compiled;
  for (const n of batches) {
    const x = paddle.randn([n, ...inTail]);
    const [got] = exe.run(main, { feed: { x }, fetch_list: [out] });
    paddle.disable_static();
    const want = eagerFn(x);
    paddle.enable_static();
    expectAllClose(got, want, `batch ${n}`, tol);
  }
  expect(staticExecutorStats.compiled - compiled, 'one compiled plan for every batch size').toBe(1);
}

describe('models: paddle.static == eager', () => {
  beforeEach(() => { paddle.seed(7); paddle.enable_static(); });
  afterEach(() => paddle.disable_static());

  it('MLP (create_parameter, symbolic batch)', () => {
    const { main, out, eagerParams } = buildWithCreateParameter(mlp, [null, 16], MLP_PARAMS, 'mlp');
    const text = String(main);
    expect(text).toContain('"pd_op.data" () {name:"x", shape:shape[s0, 16], dtype:float32} : () -> tensor<s0x16xf32>');
    expect(text).toContain('"builtin.parameter" () {parameter_name:"mlp.w1"} : () -> tensor<16x32xf32>');
    for (const op of ['matmul', 'add', 'relu', 'softmax']) expect(text).toContain(`"pd_op.${op}"`);
    expect(text).toContain('-> tensor<s0x10xf32>');
    checkAtBatches(main, out, (x) => mlp(x, eagerParams), [16], [3, 7]);
  });

  it('LeNet (conv2d, max_pool2d, flatten, linear; eager parameters captured)', () => {
    const p: Record<string, Tensor> = {};
    for (const [n, shape] of Object.entries(LENET_PARAMS)) p[n] = paddle.scale(paddle.randn(shape), 0.2);
    const main = new paddle.static.Program();
    const out = paddle.static.program_guard(main, () => lenet(paddle.static.data('x', [null, 1, 28, 28]), p));
    const text = String(main);
    for (const op of ['conv2d', 'max_pool2d', 'flatten', 'relu', 'matmul']) expect(text).toContain(`"pd_op.${op}"`);
    expect(text).toContain('-> tensor<s0x10xf32>');
    // the captured weights are parameters of the program, bound to the eager tensors' storage
    expect(text.match(/"builtin\.parameter"/g)?.length).toBe(Object.keys(LENET_PARAMS).length);
    checkAtBatches(main, out, (x) => lenet(x, p), [1, 28, 28], [2, 5], 1e-4);
  });

  it('transformer block (layer_norm, matmul, softmax, gelu; symbolic batch)', () => {
    const { main, out, eagerParams } = buildWithCreateParameter(block, [null, SEQ, WIDTH], BLOCK_PARAMS, 'block');
    const text = String(main);
    for (const op of ['layer_norm', 'matmul', 'softmax', 'gelu', 'reshape', 'transpose', 'scale']) expect(text).toContain(`"pd_op.${op}"`);
    expect(text).toContain(`-> tensor<s0x${SEQ}x${WIDTH}xf32>`);
    checkAtBatches(main, out, (x) => block(x, eagerParams), [SEQ, WIDTH], [1, 4], 1e-4);
  });

  it('the same model code runs in Tensor-method style on program values', () => {
    const w = paddle.randn([4, 3]);
    const main = new paddle.static.Program();
    const y = paddle.static.program_guard(main, () => paddle.static.data('x', [null, 4]).matmul(w).relu().sum(-1));
    const x = paddle.randn([5, 4]);
    const [got] = new paddle.static.Executor().run(main, { feed: { x }, fetch_list: [y] });
    paddle.disable_static();
    expectAllClose(got, x.matmul(w).relu().sum(-1), 'method style');
  });
});

// Whole models built with paddle.static in TypeScript equal their eager versions: an MLP, a
// LeNet (conv2d, max_pool2d, flatten, linear) and a transformer block (layer_norm, matmul,
// softmax, gelu). Each model is one function written against the public API and called on
// eager tensors and on paddle.static values alike; the batch dim is symbolic (None) and the
// program runs at two batch sizes from one compiled plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { staticExecutorStats } from '../../src/static/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose } from '../executor/helpers.js';
import { MODELS, type ModelSpec } from '../passes/models.js';

type T = any;  // an eager Tensor or a paddle.static value: the model code cannot tell

// The models are test/passes/models.ts's (one definition for the pass, autodiff and static suites).
const spec = (name: string): ModelSpec => MODELS.find((m) => m.name === name)!;
const MLP = spec('mlp'), LENET = spec('lenet'), BLOCK = spec('transformer_block');
const [SEQ, WIDTH] = BLOCK.inTail;

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
    const { main, out, eagerParams } = buildWithCreateParameter(MLP.fn, [null, 16], MLP.params, 'mlp');
    const text = String(main);
    expect(text).toContain('"pd_op.data" () {name:"x", shape:shape[s0, 16], dtype:float32} : () -> tensor<s0x16xf32>');
    expect(text).toContain('"builtin.parameter" () {parameter_name:"mlp.w1"} : () -> tensor<16x32xf32>');
    for (const op of ['matmul', 'add', 'relu', 'softmax']) expect(text).toContain(`"pd_op.${op}"`);
    expect(text).toContain('-> tensor<s0x10xf32>');
    checkAtBatches(main, out, (x) => MLP.fn(x, eagerParams), [16], [3, 7]);
  });

  it('LeNet (conv2d, max_pool2d, flatten, linear; eager parameters captured)', () => {
    const p: Record<string, Tensor> = {};
    for (const [n, shape] of Object.entries(LENET.params)) p[n] = paddle.scale(paddle.randn(shape), 0.2);
    const main = new paddle.static.Program();
    const out = paddle.static.program_guard(main, () => LENET.fn(paddle.static.data('x', [null, 1, 28, 28]), p));
    const text = String(main);
    for (const op of ['conv2d', 'max_pool2d', 'flatten', 'relu', 'matmul']) expect(text).toContain(`"pd_op.${op}"`);
    expect(text).toContain('-> tensor<s0x10xf32>');
    // the captured weights are parameters of the program, bound to the eager tensors' storage
    expect(text.match(/"builtin\.parameter"/g)?.length).toBe(Object.keys(LENET.params).length);
    checkAtBatches(main, out, (x) => LENET.fn(x, p), [1, 28, 28], [2, 5], 1e-4);
  });

  it('transformer block (layer_norm, matmul, softmax, gelu; symbolic batch)', () => {
    const { main, out, eagerParams } = buildWithCreateParameter(BLOCK.fn, [null, SEQ, WIDTH], BLOCK.params, 'block');
    const text = String(main);
    for (const op of ['layer_norm', 'matmul', 'softmax', 'gelu', 'reshape', 'transpose', 'scale']) expect(text).toContain(`"pd_op.${op}"`);
    expect(text).toContain(`-> tensor<s0x${SEQ}x${WIDTH}xf32>`);
    checkAtBatches(main, out, (x) => BLOCK.fn(x, eagerParams), [SEQ, WIDTH], [1, 4], 1e-4);
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

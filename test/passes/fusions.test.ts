// The fusions of issue 8 against the ops they replace: each program runs through the executor
// unfused and after its pass, on random inputs, and the results agree to 1e-5 relative (or
// exactly, for the dropout stream). Programs are built with the Builder, or recorded from the
// public API, or differentiated by program autodiff (the weight-gradient accumulation).
import { describe, expect, it } from 'vitest';
import { compile, fromPir } from '../../src/executor/index.js';
import { paddle } from '../../src/paddle.js';
import { Attr } from '../../src/pir/attributes.js';
import { seed } from '../../src/ops/defs/random.js';
import { Builder, Program, tensorType, type Value } from '../../src/pir/index.js';
import { appendBackward } from '../../src/pir/autodiff/index.js';
import {
  foldConvBnPass, foldParametersPass, fuseAttentionPass, fuseResidualLayerNormPass, fuseDropoutAddPass, fuseLayerNormPass, fuseLinearGradPass, fuseSoftmaxMaskPass,
  PassManager, type Pass, runPipeline,
} from '../../src/passes/index.js';
import { sym } from '../../src/tensor/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose, flat, randTensor } from '../executor/helpers.js';
import { buildModel, MODELS } from './models.js';

type Params = Record<string, Tensor>;

/** Runs p on feeds (by pd_op.data order) with named params; returns every fetch. */
function run(p: Program, params: Params, feeds: Tensor[]): Tensor[] {
  const g = fromPir(p);
  const exe = compile(g.graph, { params: [...g.params.map((n) => params[n]), ...g.constants] });
  const out = exe.run(feeds);
  exe.dispose();
  for (const c of g.constants) c.dispose();
  return out;
}

const count = (p: Program, name: string): number => p.allOps().filter((o) => o.name === `pd_op.${name}`).length;

/** Runs `before` and a copy after `passes`; the fetched values must agree. Returns the copy. */
function expectSame(before: Program, passes: Pass[], params: Params, feeds: Tensor[], tol = 1e-5, reseed?: number): Program {
  const after = before.clone();
  new PassManager(passes, { verify: true }).run(after);
  if (reseed !== undefined) seed(reseed);
  const want = run(before, params, feeds);
  if (reseed !== undefined) seed(reseed);
  const got = run(after, params, feeds);
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => {
    if (tol === 0) expect(flat(g), `fetch ${i}`).toEqual(flat(want[i]));
    else expectAllClose(g, want[i], `fetch ${i}`, tol);
  });
  for (const t of [...want, ...got]) t.dispose();
  return after;
}

function builder(): [Program, Builder] {
  const p = new Program();
  return [p, new Builder(p)];
}

describe('fusion equivalence (fused vs unfused programs)', () => {
  it('fused_dropout_add: the same values as dropout + add under one seed, and the same stream afterwards', () => {
    const [p, b] = builder();
    const x = b.data('x', [sym('s0'), 64], 'float32'), y = b.data('y', [sym('s0'), 64], 'float32');
    const bias = b.parameter('bias', tensorType('float32', [64]));
    const [d1] = b.pd('dropout', [x], { p: 0.3 });
    const [h] = b.pd('add', [d1, y]);
    const [d2] = b.pd('dropout', [h], { p: 0.5, mode: 'downscale_in_infer' });
    const [o] = b.pd('add', [bias, d2]);
    const [after] = b.pd('uniform', [], { shape: [8], min: 0, max: 1 });  // the next draw: same offset in both
    b.fetch(o, 'o'); b.fetch(after, 'next');
    const params = { bias: randTensor([64], 3) };
    for (const batch of [3, 17]) {
      const fused = expectSame(p, [fuseDropoutAddPass()], params, [randTensor([batch, 64], 1), randTensor([batch, 64], 2)], 0, 42);
      expect(count(fused, 'fused_dropout_add')).toBe(2);
      expect(count(fused, 'dropout')).toBe(0);
    }
  });

  it('fused_dropout_add in a training program: program autodiff through the fused op equals the unfused backward', () => {
    const build = (fuse: boolean): Program => {
      const [p, b] = builder();
      const x = b.data('x', [sym('s0'), 32], 'float32'), y = b.data('y', [sym('s0'), 32], 'float32');
      const w = b.parameter('w', tensorType('float32', [32]));
      const [h] = b.pd('multiply', [x, w]);
      const [o] = b.pd('add', [b.pd('dropout', [h], { p: 0.4 })[0], y]);
      const [loss] = b.pd('sum', [b.pd('tanh', [o])[0]], { axis: [] });
      b.fetch(loss, 'loss');
      if (fuse) runPipeline(p, 'training', { verify: true });
      const [gw] = appendBackward(p, [loss], [w]) as Value[];
      b.setInsertionPointToEnd(p.block);
      b.fetch(gw, 'gw');
      return p;
    };
    const fusedP = build(true);
    expect(count(fusedP, 'fused_dropout_add')).toBe(1);
    expect(count(fusedP, 'fused_dropout_add_grad')).toBe(1);
    const params = { w: randTensor([32], 3) }, feeds = [randTensor([5, 32], 1), randTensor([5, 32], 2)];
    const results = [build(false), fusedP].map((p) => { seed(11); return run(p, params, feeds).map(flat); });
    expect(results[1][0][0]).toBeCloseTo(results[0][0][0], 4);
    results[1][1].forEach((v, i) => expect(v).toBeCloseTo(results[0][1][i], 5));
  });

  it('fused_linear_param_grad_add: the weight gradient of a linear layer used twice (program autodiff)', () => {
    for (const rank3 of [false, true]) {
      const [p, b] = builder();
      const lead = rank3 ? [sym('s0'), 5] : [sym('s0')];
      const x1 = b.data('x1', [...lead, 16], 'float32'), x2 = b.data('x2', [...lead, 16], 'float32');
      const w = b.parameter('w', tensorType('float32', [16, 8]));
      const [h1] = b.pd('matmul', [x1, w]);
      const [h2] = b.pd('matmul', [x2, w]);
      const [s] = b.pd('add', [b.pd('tanh', [h1])[0], h2]);
      const [loss] = b.pd('sum', [s], { axis: [] });
      const [gw] = appendBackward(p, [loss], [w]) as Value[];
      b.fetch(gw, 'gw');
      const feeds = [randTensor(rank3 ? [4, 5, 16] : [9, 16], 1), randTensor(rank3 ? [4, 5, 16] : [9, 16], 2)];
      const fused = expectSame(p, [fuseLinearGradPass()], { w: randTensor([16, 8], 3) }, feeds);
      expect(count(fused, 'fused_linear_param_grad_add'), rank3 ? '3-D' : '2-D').toBe(1);
    }
  });

  it('fused_softmax_mask_upper_triangle: causal attention scores (constant mask, triu in the program, masked_fill)', () => {
    const S = 12;
    const [p, b] = builder();
    const x = b.data('x', [sym('s0'), 2, S, S], 'float32');
    const [tri] = b.pd('triu', [b.pd('full', [], { shape: [S, S], fill_value: -Infinity, dtype: 'float32' })[0]], { diagonal: 1 });
    const [p1] = b.pd('softmax', [b.pd('add', [x, tri])[0]], { axis: -1 });
    const [big] = b.pd('full', [], { shape: [], fill_value: -1e9, dtype: 'float32' });
    const above = Array.from({ length: S * S }, (_, k) => (k % S > Math.floor(k / S) ? 1 : 0));
    const mask = b.create('builtin.constant', [], [['value', Attr.ints(above)]], [tensorType('bool', [1, S, S])]).result(0);
    const [p2] = b.pd('softmax', [b.pd('masked_fill', [p1, mask, big])[0]], { axis: -1 });
    b.fetch(p2, 'out');
    const fused = expectSame(p, [runPipelinePass('constant_fold'), fuseSoftmaxMaskPass()], {}, [randTensor([3, 2, S, S], 1)]);
    expect(count(fused, 'fused_softmax_mask_upper_triangle')).toBe(2);
    expect(count(fused, 'softmax')).toBe(0);
  });

  it('conv + batch_norm folding: constants folded from the scope, parameters untouched', () => {
    const [p, b] = builder();
    const x = b.data('x', [sym('s0'), 3, 10, 10], 'float32');
    const pr = (n: string, s: number[]) => b.parameter(n, tensorType('float32', s));
    const [w, cb, mean, vr, g, beta] = [pr('w', [8, 3, 3, 3]), pr('cb', [8]), pr('mean', [8]), pr('var', [8]), pr('g', [8]), pr('beta', [8])];
    const [c] = b.pd('conv2d', [x, w, cb], { padding: 1 });
    const [y] = b.pd('batch_norm', [c, mean, vr, g, beta], { training: false, epsilon: 1e-3 });
    const [r] = b.pd('relu', [y]);
    b.fetch(r, 'out');
    const params: Params = {
      w: randTensor([8, 3, 3, 3], 1), cb: randTensor([8], 2), mean: randTensor([8], 3), var: paddle.exp(randTensor([8], 4)) as Tensor, g: randTensor([8], 5), beta: randTensor([8], 6),
    };
    const before = Object.fromEntries(Object.entries(params).map(([n, t]) => [n, flat(t)]));
    const lookup = (n: string) => params[n];
    const fused = expectSame(p, [foldConvBnPass({ params: lookup }), runPipelinePass('dce')], params, [randTensor([2, 3, 10, 10], 7)]);
    expect(count(fused, 'batch_norm')).toBe(0);
    expect(count(fused, 'conv2d')).toBe(1);
    expect(fused.allOps().filter((o) => o.name === 'builtin.parameter').map((o) => o.attr('parameter_name')), 'folded weights are constants').toEqual([]);
    for (const [n, t] of Object.entries(params)) expect(flat(t), `parameter ${n} unchanged`).toEqual(before[n]);
    // Without bound parameters nothing is known at compile time: nothing folds (the transform
    // would otherwise run on every execution). foldParametersPass alone leaves the program's meaning.
    const unbound = expectSame(p, [foldConvBnPass()], params, [randTensor([1, 3, 10, 10], 8)]);
    expect(count(unbound, 'batch_norm')).toBe(1);
    expectSame(p, [foldParametersPass(lookup)], params, [randTensor([1, 3, 10, 10], 9)]);
  });

  it('layer_norm: the decomposed mean/var/sub/div/mul/add sequence recorded from the public API', () => {
    const spec = MODELS[2];
    const before = buildModel({ ...spec, name: 'ln_block', fn: (x, pr) => handLayerNorm(x, pr.ln1g, pr.ln1b) });
    const params: Params = {};
    let k = 1;
    for (const [n, shape] of Object.entries(spec.params)) params[`ln_block.${n}`] = randTensor(shape, k++);  // buildModel declares every one
    const fused = expectSame(before, [fuseLayerNormPass(), runPipelinePass('dce')], params, [randTensor([4, 6, 16], 4)]);
    expect(count(fused, 'layer_norm')).toBe(1);
    expect(count(fused, 'mean') + count(fused, 'sqrt') + count(fused, 'divide')).toBe(0);
  });

  it('fused_bias_residual_layernorm: the transformer block\'s residual add + layer_norm', () => {
    const spec = MODELS[2];
    const before = buildModel(spec);
    const params: Params = {};
    let k = 30;
    for (const [n, shape] of Object.entries(spec.params)) params[`${spec.name}.${n}`] = randTensor(shape, k++);
    const fused = expectSame(before, [fuseResidualLayerNormPass()], params, [randTensor([3, 6, 16], 2)]);
    expect(count(fused, 'fused_bias_residual_layernorm')).toBe(1);
    expect(count(fused, 'layer_norm')).toBe(1);  // the first one normalizes the input, no sum
  });

  it('attention: causal attention on [B, H, S, D] heads onto scaled_dot_product_attention(is_causal)', () => {
    const [p, b] = builder();
    const [q, k, v] = ['q', 'k', 'v'].map((n) => b.data(n, [sym('s0'), 2, 10, 8], 'float32'));
    const [sc] = b.pd('scale', [b.pd('matmul', [q, k], { transpose_y: true })[0]], { scale: 1 / Math.sqrt(8) });
    const [tri] = b.pd('triu', [b.pd('full', [], { shape: [10, 10], fill_value: -Infinity, dtype: 'float32' })[0]], { diagonal: 1 });
    const [probs] = b.pd('softmax', [b.pd('add', [sc, tri])[0]], { axis: -1 });
    b.fetch(b.pd('matmul', [probs, v])[0], 'out');
    const fused = expectSame(p, ['constant_fold', 'fuse_softmax_mask', 'fuse_attention', 'canonicalize', 'dce'].map(runPipelinePass), {},
      [1, 2, 3].map((s) => randTensor([3, 2, 10, 8], s)));
    const att = fused.allOps().filter((o) => o.name === 'pd_op.scaled_dot_product_attention');
    expect(att.length).toBe(1);
    expect((att[0].attr('is_causal') as { value: boolean }).value).toBe(true);
  });

  it('attention: the transformer block onto scaled_dot_product_attention', () => {
    const spec = MODELS[2];
    const before = buildModel(spec);
    const params: Params = {};
    let s = 10;
    for (const [n, shape] of Object.entries(spec.params)) params[`${spec.name}.${n}`] = randTensor(shape, s++);
    const fused = expectSame(before, [fuseAttentionPass(), runPipelinePass('canonicalize')], params, [randTensor([3, 6, 16], 1)]);
    expect(count(fused, 'scaled_dot_product_attention')).toBe(1);
    expect(count(fused, 'softmax')).toBe(0);
    expect(count(fused, 'transpose'), 'the heads transposes cancel').toBe(0);
  });
});

describe('pipelines place the fusions', () => {
  it('inference fuses attention and layer_norm in the transformer block; training fuses neither attention nor the gemm', () => {
    const inf = buildModel(MODELS[2]);
    runPipeline(inf, 'inference', { verify: true });
    expect(count(inf, 'scaled_dot_product_attention')).toBe(1);
    const tr = buildModel(MODELS[2]);
    runPipeline(tr, 'training', { verify: true });
    expect(count(tr, 'scaled_dot_product_attention') + count(tr, 'fused_gemm_epilogue')).toBe(0);
  });
});

function runPipelinePass(name: string): Pass {
  return new PassManager([name]).passes[0];
}

// LayerNorm as users write it: (x - mean) / sqrt(var + eps) * g + b.
function handLayerNorm(x: any, g: any, b: any): any {
  const P = paddle as any;
  const mu = P.mean(x, -1, true);
  const xc = P.subtract(x, mu);
  const v = P.mean(P.square(xc), -1, true);
  return P.add(P.multiply(P.divide(xc, P.sqrt(P.scale(v, 1, 1e-5))), g), b);
}

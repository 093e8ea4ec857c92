// The fusions of issue 8 against the ops they replace, and the inference pipeline against no
// passes on LeNet and a transformer block, all as compiled executor programs.
//
//   npx tsx bench/fusions.ts [--quick]
//
// Writes the "## Fusions" section of bench/results.md.
//
// Method (as bench/fused_gemm.ts): each sample times an unfused loop and a fused loop
// (>= MIN_MS each) back to back, order alternating; figures are medians of samples, the ratio
// the median of per-sample ratios, which a burst of load from other processes skews least.
import '../src/ops/index.js';
import os from 'node:os';
import { compile, fromPir } from '../src/executor/index.js';
import { native } from '../src/native.js';
import { runOp } from '../src/ops/dispatch.js';
import { seed } from '../src/ops/defs/random.js';
import { Builder, Program, tensorType } from '../src/pir/index.js';
import {
  foldConvBnPass, fuseAttentionPass, fuseResidualLayerNormPass, fuseDropoutAddPass, fuseLayerNormPass, fuseLinearGradPass, fuseSoftmaxMaskPass,
  type Pass, PassManager, runPipeline,
} from '../src/passes/index.js';
import { DTYPE_CODE } from '../src/tensor/dtype.js';
import { encodeValues } from '../src/tensor/creation.js';
import { Tensor } from '../src/tensor/tensor.js';
import { buildModel, MODELS } from '../test/passes/models.js';
import { table, writeSection, timePair as timePairIn } from './results.js';

const quick = process.argv.includes('--quick');
const SAMPLES = quick ? 5 : 15;
const MIN_MS = quick ? 5 : 10;

function tensor(shape: number[], s0: number, lo = -1, hi = 1): Tensor {
  let s = s0 >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return lo + (s / 2 ** 32) * (hi - lo); });
  return new Tensor(native.fromBytes(DTYPE_CODE.float32, shape, encodeValues(data, 'float32')), 'float32', shape);
}

const timePair = (a: () => void, b: () => void) => timePairIn(a, b, SAMPLES, MIN_MS);

type Params = Record<string, Tensor>;

/** Compiles p (params by name); returns a runner and a disposer. */
function compiled(p: Program, params: Params): { run: (feeds: Tensor[]) => Tensor[]; dispose: () => void } {
  const g = fromPir(p);
  const exe = compile(g.graph, { params: [...g.params.map((n) => params[n]), ...g.constants] });
  return { run: (f) => exe.run(f), dispose: () => { exe.dispose(); for (const c of g.constants) c.dispose(); } };
}

const rows: (string | number)[][] = [];

/**
 * One row: `plain` unfused against a copy after `passes` (which must create `expect`), on
 * `feeds`. The normwise difference of the first fetch is reported (a random op reseeds).
 */
function row(what: string, shape: string, plain: Program, passes: Pass[], expect: string, params: Params, feeds: Tensor[], reseed = false): void {
  const fused = plain.clone();
  new PassManager(passes, { verify: true }).run(fused);
  if (!fused.allOps().some((o) => o.name === `pd_op.${expect}`)) throw new Error(`${what}: the fusion did not produce ${expect}`);
  const [a, b] = [compiled(plain, params), compiled(fused, params)];
  const outs = [a, b].map((e) => { if (reseed) seed(1); const r = e.run(feeds); const v = r[0].dataSync().map(Number); for (const t of r) t.dispose(); return v; });
  // Normwise: max |unfused - fused| over max |unfused| (elementwise ratios blow up near zeros).
  let dmax = 0, vmax = 0;
  outs[0].forEach((v, i) => { dmax = Math.max(dmax, Math.abs(v - outs[1][i])); vmax = Math.max(vmax, Math.abs(v)); });
  const diff = dmax / Math.max(vmax, 1e-30);
  const t = timePair(() => { for (const r of a.run(feeds)) r.dispose(); }, () => { for (const r of b.run(feeds)) r.dispose(); });
  rows.push([what, shape, t.a, t.b, t.ratio, diff]);
  console.log(rows[rows.length - 1].map((v) => (typeof v === 'number' ? v.toPrecision(4) : v)).join('  '));
  a.dispose(); b.dispose();
}

const builder = (): [Program, Builder] => { const p = new Program(); return [p, new Builder(p)]; };
const dispose = (ts: Tensor[] | Params) => { for (const t of Array.isArray(ts) ? ts : Object.values(ts)) t.dispose(); };

// ---- dropout + add ----
for (const [m, n] of quick ? [[256, 1024]] : [[64, 1024], [512, 4096]]) {
  const [p, b] = builder();
  const x = b.data('x', [m, n], 'float32'), y = b.data('y', [m, n], 'float32');
  b.fetch(b.pd('add', [b.pd('dropout', [x], { p: 0.1 })[0], y])[0], 'out');
  const feeds = [tensor([m, n], 1), tensor([m, n], 2)];
  row('dropout + add -> fused_dropout_add', `[${m}, ${n}]`, p, [fuseDropoutAddPass()], 'fused_dropout_add', {}, feeds, true);
  dispose(feeds);
}

// ---- weight gradient accumulation ----
for (const [m, k, n] of quick ? [[64, 256, 256]] : [[32, 256, 256], [64, 1024, 1024], [512, 1024, 1024]]) {
  const [p, b] = builder();
  const x = b.data('x', [m, k], 'float32'), dy = b.data('dy', [m, n], 'float32');
  const acc = b.parameter('acc', tensorType('float32', [k, n]));
  b.fetch(b.pd('add', [acc, b.pd('matmul', [x, dy], { transpose_x: true })[0]])[0], 'dw');
  const params = { acc: tensor([k, n], 3) }, feeds = [tensor([m, k], 1), tensor([m, n], 2)];
  row('acc + x^T dy -> fused_linear_param_grad_add', `x [${m}, ${k}], dy [${m}, ${n}]`, p, [fuseLinearGradPass()], 'fused_linear_param_grad_add', params, feeds);
  dispose(feeds); dispose(params);
}

// ---- causal softmax ----
for (const [bh, s] of quick ? [[8, 128]] : [[8, 128], [16, 512]]) {
  const [p, b] = builder();
  const x = b.data('x', [1, bh, s, s], 'float32');
  const mask = b.parameter('mask', tensorType('float32', [s, s]));
  b.fetch(b.pd('softmax', [b.pd('add', [x, mask])[0]], { axis: -1 })[0], 'out');
  const m = runOp('triu', [runOp('full', [], { shape: [s, s], fill_value: -Infinity, dtype: 'float32' })[0]], { diagonal: 1 })[0] as Tensor;
  const params = { mask: m }, feeds = [tensor([1, bh, s, s], 1, -4, 4)];
  row('softmax(x + causal mask) -> fused_softmax_mask_upper_triangle', `[1, ${bh}, ${s}, ${s}]`, p, [fuseSoftmaxMaskPass({ params: (nm) => params[nm as 'mask'] })],
    'fused_softmax_mask_upper_triangle', params, feeds);
  dispose(feeds); dispose(params);
}

// ---- conv + batch_norm ----
for (const [nb, ci, hw, co] of quick ? [[4, 16, 32, 32]] : [[8, 16, 32, 32], [1, 64, 56, 64]]) {
  const [p, b] = builder();
  const x = b.data('x', [nb, ci, hw, hw], 'float32');
  const pr = (nm: string, s: number[]) => b.parameter(nm, tensorType('float32', s));
  const [c] = b.pd('conv2d', [x, pr('w', [co, ci, 3, 3]), null], { padding: 1 });
  b.fetch(b.pd('batch_norm', [c, pr('mean', [co]), pr('var', [co]), pr('g', [co]), pr('beta', [co])], { training: false })[0], 'out');
  const params: Params = { w: tensor([co, ci, 3, 3], 1), mean: tensor([co], 2), var: tensor([co], 3, 0.5, 2), g: tensor([co], 4), beta: tensor([co], 5) };
  const feeds = [tensor([nb, ci, hw, hw], 6)];
  row('conv2d + batch_norm -> folded conv2d', `x [${nb}, ${ci}, ${hw}, ${hw}], ${co} filters 3x3`, p,
    [foldConvBnPass({ params: (nm) => params[nm] }), new PassManager(['dce']).passes[0]], 'conv2d', params, feeds);
  dispose(feeds); dispose(params);
}

// ---- hand-written layer norm ----
for (const [m, w] of quick ? [[256, 768]] : [[256, 768], [2048, 1024]]) {
  const [p, b] = builder();
  const x = b.data('x', [m, w], 'float32');
  const g = b.parameter('g', tensorType('float32', [w])), beta = b.parameter('b', tensorType('float32', [w]));
  const [mu] = b.pd('mean', [x], { axis: [-1], keepdim: true });
  const [xc] = b.pd('subtract', [x, mu]);
  const [v] = b.pd('mean', [b.pd('square', [xc])[0]], { axis: [-1], keepdim: true });
  const [sd] = b.pd('sqrt', [b.pd('scale', [v], { scale: 1, bias: 1e-5 })[0]]);
  b.fetch(b.pd('add', [b.pd('multiply', [b.pd('divide', [xc, sd])[0], g])[0], beta])[0], 'out');
  const params = { g: tensor([w], 1), b: tensor([w], 2) }, feeds = [tensor([m, w], 3)];
  row('mean/sub/square/mean/sqrt/div/mul/add -> layer_norm', `[${m}, ${w}]`, p, [fuseLayerNormPass()], 'layer_norm', params, feeds);
  dispose(feeds); dispose(params);
}

// ---- residual add + layer norm ----
for (const [m, w] of quick ? [[256, 768]] : [[256, 768], [2048, 1024]]) {
  const [p, b] = builder();
  const x = b.data('x', [m, w], 'float32'), h = b.data('h', [m, w], 'float32');
  const g = b.parameter('g', tensorType('float32', [w])), beta = b.parameter('b', tensorType('float32', [w]));
  const [sum] = b.pd('add', [x, h]);
  const [ln] = b.pd('layer_norm', [sum, g, beta], { epsilon: 1e-5, begin_norm_axis: 1 });
  b.fetch(ln, 'out'); b.fetch(sum, 'sum');
  const params = { g: tensor([w], 1), b: tensor([w], 2) }, feeds = [tensor([m, w], 3), tensor([m, w], 4)];
  row('add + layer_norm -> fused_bias_residual_layernorm', `[${m}, ${w}]`, p, [fuseResidualLayerNormPass()], 'fused_bias_residual_layernorm', params, feeds);
  dispose(feeds); dispose(params);
}

// ---- attention ----
for (const [bb, h, s, d] of quick ? [[2, 4, 64, 32]] : [[2, 4, 128, 32], [1, 8, 256, 64]]) {
  const [p, b] = builder();
  const [q, k, v] = ['q', 'k', 'v'].map((nm) => b.data(nm, [bb, h, s, d], 'float32'));
  const [sc] = b.pd('scale', [b.pd('matmul', [q, k], { transpose_y: true })[0]], { scale: 1 / Math.sqrt(d) });
  b.fetch(b.pd('matmul', [b.pd('softmax', [sc], { axis: -1 })[0], v])[0], 'out');
  const feeds = [1, 2, 3].map((sd) => tensor([bb, h, s, d], sd));
  row('matmul/scale/softmax/matmul -> scaled_dot_product_attention', `[${bb}, ${h}, ${s}, ${d}]`, p, [fuseAttentionPass()], 'scaled_dot_product_attention', {}, feeds);
  dispose(feeds);
}

// ---- pipelines on the models ----
const pipeRows: (string | number)[][] = [];
for (const [spec, batch] of [[MODELS[1], quick ? 16 : 64], [MODELS[2], quick ? 8 : 32]] as const) {
  const plain = buildModel(spec);
  const opt = plain.clone();
  const stats = runPipeline(opt, 'inference', { verify: true });
  const params: Params = {};
  let sd = 10;
  for (const [nm, shape] of Object.entries(spec.params)) params[`${spec.name}.${nm}`] = tensor(shape, sd++, -0.3, 0.3);
  const feeds = [tensor([batch, ...spec.inTail], 1)];
  const [a, b] = [compiled(plain, params), compiled(opt, params)];
  const t = timePair(() => { for (const r of a.run(feeds)) r.dispose(); }, () => { for (const r of b.run(feeds)) r.dispose(); });
  const ops = (p: Program) => p.allOps().filter((o) => o.name.startsWith('pd_op.') && o.name !== 'pd_op.data' && o.name !== 'pd_op.fetch').length;
  pipeRows.push([spec.name, batch, ops(plain), ops(opt), t.a, t.b, t.ratio, stats.reduce((x, st) => x + st.ms, 0)]);
  console.log(pipeRows[pipeRows.length - 1].join('  '));
  a.dispose(); b.dispose(); dispose(feeds); dispose(params);
}

writeSection('Fusions', `\`npx tsx bench/fusions.ts\`: each fusion pass of issue 8 (docs/passes.md) against the ops it replaces,
as compiled executor programs before and after the pass, fp32, ${native.numThreads()} threads, load average
${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end. Median µs per run; ratio = median over samples of unfused / fused
timed back to back (> 1: fused is faster); rel diff = max |unfused - fused| / max |unfused| of the first output (dropout: same seed; 0: bit-identical).

${table(['fusion', 'shape', 'unfused µs', 'fused µs', 'ratio', 'rel diff'], rows)}

Inference pipeline (src/passes, \`runPipeline(p, 'inference')\`) against no passes, on the models of test/passes/models.ts
(pd ops counted without data/fetch; pass time = the whole pipeline's compile-time cost, once per program):

${table(['model', 'batch', 'ops before', 'ops after', 'no passes µs', 'inference µs', 'ratio', 'pass time ms'], pipeRows)}
`);

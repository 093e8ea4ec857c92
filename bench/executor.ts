// The native executor against eager op-by-op dispatch, and its buffer plan against none.
//
//   npx tsx bench/executor.ts [--quick]
//
// Writes the "## Executor" section of bench/results.md.
//
// Eager baseline: the same graph run through runOpDef (the cheapest eager path: no argument
// binding or promotion), each intermediate disposed right after its last use. Executor: one
// exe.run() per call (plan cached), output disposed. Times are medians over samples, each a loop
// lasting >= 25 ms. Peak bytes: the native runner's plan-storage high-water mark, and the global
// native peak above the live baseline (which also counts outputs and, for eager, every tensor).
import '../src/ops/index.js';
import { compile, GraphBuilder, type ExecGraph, checkGraph, HOST_CALL } from '../src/executor/index.js';
import { native } from '../src/native.js';
import { resolveAttrs, runOpDef } from '../src/ops/dispatch.js';
import { getOp, hasOp } from '../src/ops/registry.js';
import type { OpDef } from '../src/ops/types.js';
import { DTYPE_CODE, type DType } from '../src/tensor/dtype.js';
import { encodeValues } from '../src/tensor/creation.js';
import { Tensor } from '../src/tensor/tensor.js';
import os from 'node:os';
import { median, table, writeSection } from './results.js';

const quick = process.argv.includes('--quick');
const SAMPLES = quick ? 3 : 7;
const MIN_MS = quick ? 10 : 25;

function tensor(shape: number[], seed: number, dtype: DType = 'float32', scale = 1): Tensor {
  let s = seed >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return ((s / 2 ** 32) * 2 - 1) * scale; });
  return new Tensor(native.fromBytes(DTYPE_CODE[dtype], shape, encodeValues(data, dtype)), dtype, shape);
}

/** Median microseconds per call of each fn; samples alternate between them so drift hits both alike. */
function timeBoth(fns: readonly (() => void)[]): number[] {
  for (const fn of fns) { const t0 = performance.now(); while (performance.now() - t0 < 4 * MIN_MS) fn(); }
  const samples: number[][] = fns.map(() => []);
  for (let s = 0; s < SAMPLES; s++) {
    fns.forEach((fn, k) => {
      let n = 0;
      const t0 = performance.now();
      let t = t0;
      while (t - t0 < MIN_MS) { for (let i = 0; i < 20; i++) fn(); n += 20; t = performance.now(); }
      samples[k].push(((t - t0) * 1000) / n);
    });
  }
  return samples.map(median);
}

/** Eager op-by-op runner for a graph: runOpDef per node, intermediates disposed at last use. */
function eagerRunner(g: ExecGraph, params: Tensor[]): (inputs: Tensor[]) => Tensor[] {
  checkGraph(g);
  const steps = g.nodes.map((n) => {
    if (n.op === HOST_CALL) throw new Error('bench: no host calls');
    const def: OpDef = getOp(n.op);
    return { def, attrs: resolveAttrs(def, n.attrs ?? {}), ins: n.inputs, outs: n.outputs };
  });
  const keep = new Set([...g.inputs, ...g.params, ...g.outputs]);
  const last = new Map<number, number>();
  steps.forEach((s, k) => { for (const i of s.ins) if (i !== null) last.set(i, k); });
  const env = new Map<number, Tensor>();
  return (inputs) => {
    g.inputs.forEach((id, i) => env.set(id, inputs[i]));
    g.params.forEach((id, i) => env.set(id, params[i]));
    steps.forEach((s, k) => {
      const outs = runOpDef(s.def, s.ins.map((i) => (i === null ? null : env.get(i)!)), s.attrs) as Tensor[];
      s.outs.forEach((id, j) => env.set(id, outs[j]));
      for (const i of s.ins) if (i !== null && last.get(i) === k && !keep.has(i)) env.get(i)!.dispose();
      s.outs.forEach((id, j) => { if (!last.has(id) && !keep.has(id)) outs[j].dispose(); });
    });
    return g.outputs.map((id) => env.get(id)!);
  };
}

interface Case { name: string; g: ExecGraph; inputs: Tensor[]; params: Tensor[] }

function chainCase(n: number, width: number): Case {
  const b = new GraphBuilder();
  const x = b.input('float32', [width]);
  const w1 = b.param('float32', [width]), w2 = b.param('float32', [width]);
  const unary = ['relu', 'tanh', 'abs'].filter((o) => hasOp(o) && getOp(o).inputs.length === 1);
  const binary = ['add', 'multiply', 'subtract'].filter((o) => hasOp(o));
  const ops = [...binary, ...unary];
  let h = x;
  for (let i = 0; i < n; i++) {
    const op = ops[i % ops.length];
    h = unary.includes(op) ? b.op1(op, [h]) : b.op1(op, [h, i % 2 ? w2 : w1]);
  }
  b.output(h);
  return { name: `${n}-op chain (${ops.join('/')}) on [${width}] f32`, g: b.build(), inputs: [tensor([width], 1)], params: [tensor([width], 2), tensor([width], 3, 'float32', 0.01)] };
}

function mlpCase(batch: number): Case | null {
  if (!hasOp('matmul')) return null;
  const relu = hasOp('relu') ? 'relu' : null;
  const b = new GraphBuilder();
  const x = b.input('float32', [batch, 784]);
  const dims = [784, 128, 10];
  const params: Tensor[] = [];
  let h = x;
  for (let l = 0; l < 2; l++) {
    const w = b.param('float32', [dims[l], dims[l + 1]]), bias = b.param('float32', [dims[l + 1]]);
    params.push(tensor([dims[l], dims[l + 1]], 10 + l, 'float32', 0.05), tensor([dims[l + 1]], 20 + l));
    h = b.op1('add', [b.op1('matmul', [h, w]), bias]);
    if (relu && l === 0) h = b.op1(relu, [h]);
  }
  b.output(h);
  return { name: `MLP 784-128-10${relu ? ' (relu)' : ''}, batch ${batch}`, g: b.build(), inputs: [tensor([batch, 784], 5)], params };
}

/** LeNet-5 when its ops exist; else its conv/pool trunk; else a chain with large intermediates. */
function lenetCase(batch: number): Case {
  const b = new GraphBuilder();
  const x = b.input('float32', [batch, 1, 28, 28]);
  const params: Tensor[] = [];
  const param = (shape: number[], scale = 0.1): number => { params.push(tensor(shape, 100 + params.length, 'float32', scale)); return b.param('float32', shape); };
  const act = (h: number): number => (hasOp('relu') ? b.op1('relu', [h]) : h);
  if (!hasOp('conv2d') || !hasOp('max_pool2d') || !hasOp('flatten')) {
    let h = x;
    for (let i = 0; i < 12; i++) h = b.op1(i % 3 === 2 ? 'cast' : 'add', i % 3 === 2 ? [h] : [h, h], i % 3 === 2 ? { dtype: i % 2 ? 'float32' : 'float64' } : {});
    b.output(h);
    return { name: `stand-in chain, batch ${batch}`, g: b.build(), inputs: [tensor([batch, 1, 28, 28], 7)], params };
  }
  let h = act(b.op1('conv2d', [x, param([6, 1, 5, 5]), param([6])], { padding: [2, 2] }));
  h = b.op1('max_pool2d', [h], { kernel_size: [2, 2], stride: [2, 2] });
  h = act(b.op1('conv2d', [h, param([16, 6, 5, 5]), param([16])]));
  h = b.op1('max_pool2d', [h], { kernel_size: [2, 2], stride: [2, 2] });
  h = b.op1('flatten', [h], { start_axis: 1 });
  const full = hasOp('matmul');
  if (full) {
    for (const [i, o] of [[400, 120], [120, 84], [84, 10]]) {
      h = b.op1('add', [b.op1('matmul', [h, param([i, o], 0.05)]), param([o])]);
      if (o !== 10) h = act(h);
    }
  }
  b.output(h);
  return { name: `LeNet-5${full ? '' : ' conv/pool trunk (no matmul yet)'}${hasOp('relu') ? '' : ' without relu'}, batch ${batch}`, g: b.build(), inputs: [tensor([batch, 1, 28, 28], 7)], params };
}

function speed(c: Case): (string | number)[] {
  const exe = compile(c.g, { params: c.params });
  const eager = eagerRunner(c.g, c.params);
  // same answer first
  const a = exe.run(c.inputs)[0], e = eager(c.inputs)[0];
  const da = new Float32Array(native.toBytes(a.handle)), de = new Float32Array(native.toBytes(e.handle));
  let diff = 0;
  for (let i = 0; i < da.length; i++) diff = Math.max(diff, Math.abs(da[i] - de[i]));
  a.dispose(); e.dispose();
  const [te, tx] = timeBoth([
    () => { for (const t of eager(c.inputs)) t.dispose(); },
    () => { for (const t of exe.run(c.inputs)) t.dispose(); },
  ]);
  const n = c.g.nodes.length;
  exe.dispose();
  return [c.name, n, te, tx, te / n, tx / n, te / tx, diff.toExponential(1)];
}

function globalPeak(fn: () => Tensor[]): number {
  for (const t of fn()) t.dispose();
  const base = native.memStats().liveBytes;
  native.resetPeak();
  const outs = fn();
  const peak = native.memStats().peakBytes - base;
  for (const t of outs) t.dispose();
  return peak;
}

function memory(c: Case): (string | number)[][] {
  const planned = compile(c.g, { params: c.params });
  const naive = compile(c.g, { params: c.params, reuse: false });
  const eager = eagerRunner(c.g, c.params);
  const p = planned.plan(c.inputs), q = naive.plan(c.inputs);
  const gp = globalPeak(() => planned.run(c.inputs)), gq = globalPeak(() => naive.run(c.inputs)), ge = globalPeak(() => eager(c.inputs));
  const kb = (b: number): string => (b / 1024).toFixed(1);
  const rows = [
    ['executor, buffer plan', p.stats.buffers, kb(p.stats.intermediateBytes), kb(planned.lastRun()!.peakBytes), kb(gp), p.stats.inplace, p.stats.reused],
    ['executor, no plan (every result its own buffer)', q.stats.buffers, kb(q.stats.intermediateBytes), kb(naive.lastRun()!.peakBytes), kb(gq), 0, 0],
    ['eager, each intermediate disposed at last use', '-', '-', '-', kb(ge), '-', '-'],
  ];
  planned.dispose(); naive.dispose();
  return rows;
}

const threads = native.numThreads();
const load = os.loadavg()[0].toFixed(1);
const speedRows = [chainCase(20, 4), chainCase(20, 1024), mlpCase(1)].filter((c): c is Case => c !== null).map(speed);
const lenet = lenetCase(32);
const memRows = memory(lenet);
const missing = ['multiply', 'relu', 'matmul', 'conv2d'].filter((o) => !hasOp(o));

const body = `Eager = the same graph op by op through \`runOpDef\` (the cheapest eager path), each intermediate
disposed at its last use. Executor = \`compile(graph).run(inputs)\`: one native call per run, plan cached.
Median µs per whole-graph call over ${SAMPLES} samples of >= ${MIN_MS} ms (eager and executor samples interleaved,\nafter a warm-up); ${threads} native threads; 1-minute load average ${load} at the start (other
work on the machine inflates absolute times; the ratio is the figure to compare).
${missing.length ? `Ops not in the registry at measurement time (graphs use what exists): ${missing.join(', ')}.\n` : ''}
${table(['graph', 'ops', 'eager µs', 'executor µs', 'eager µs/op', 'executor µs/op', 'speedup', 'max abs diff vs eager'], speedRows)}

Peak memory of ${lenet.name}: plan storage is what the runner allocates for intermediates and
outputs (its own high-water mark); "global peak" is the native allocator's peak above the live
baseline during one call (includes outputs; eager also allocates every result as its own tensor).

${table(['mode', 'storages', 'sum of results KiB', 'plan peak KiB', 'global peak KiB', 'inplace', 'reused'], memRows)}
`;
writeSection('Executor', body);
console.log(body);

// fused_gemm_epilogue against the ops it replaces (matmul, add, relu/gelu), both as compiled
// executor programs: the unfused program and the same program after the fusion pass.
//
//   npx tsx bench/fused_gemm.ts [--quick]
//
// Writes the "## Fused GEMM epilogue" section of bench/results.md.
//
// Method: one program per (shape, activation); each sample times an unfused loop and a fused
// loop (>= 10 ms each) back to back; figures are medians of samples, the ratio the median of
// the per-sample ratios (robust to bursts of load from other processes).
import '../src/ops/index.js';
import { compile, fromPir } from '../src/executor/index.js';
import { native } from '../src/native.js';
import { Builder, Program, tensorType } from '../src/pir/index.js';
import { fuseGemmPass } from '../src/passes/index.js';
import { DTYPE_CODE } from '../src/tensor/dtype.js';
import { encodeValues } from '../src/tensor/creation.js';
import { Tensor } from '../src/tensor/tensor.js';
import os from 'node:os';
import { table, writeSection, timePair as timePairIn } from './results.js';

const quick = process.argv.includes('--quick');
const SAMPLES = quick ? 5 : 21;
const MIN_MS = quick ? 5 : 10;
const SHAPES: [number, number, number][] = quick ? [[64, 256, 256], [512, 1024, 1024]]
  : [[16, 256, 256], [64, 256, 256], [128, 512, 512], [512, 1024, 1024], [2048, 1024, 1024]];
const ACTS = ['relu', 'gelu'] as const;
const THREADS = [1, 2];

function tensor(shape: number[], seed: number): Tensor {
  let s = seed >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s / 2 ** 32) * 2 - 1; });
  return new Tensor(native.fromBytes(DTYPE_CODE.float32, shape, encodeValues(data, 'float32')), 'float32', shape);
}

function linearProgram(k: number, n: number, act: string): Program {
  const p = new Program();
  const b = new Builder(p);
  const x = b.data('x', [-1, k], 'float32');
  const w = b.parameter('w', tensorType('float32', [k, n]));
  const bias = b.parameter('b', tensorType('float32', [n]));
  const [m] = b.pd('matmul', [x, w]);
  const [h] = b.pd('add', [m, bias]);
  const [y] = b.pd(act, [h]);
  b.fetch(y, 'y');
  return p;
}

const timePair = (a: () => void, b: () => void) => timePairIn(a, b, SAMPLES, MIN_MS);

const rows: (string | number)[][] = [];
const poolSize = native.numThreads();
for (const threads of THREADS) for (const [mRows, k, n] of SHAPES) {
  native.numThreads(threads);
  const x = tensor([mRows, k], 1), w = tensor([k, n], 2), bias = tensor([n], 3);
  for (const act of ACTS) {
    const plain = linearProgram(k, n, act);
    const fused = plain.clone();
    fuseGemmPass().run(fused);
    if (!fused.allOps().some((o) => o.name === 'pd_op.fused_gemm_epilogue')) throw new Error('fusion did not apply');
    const exes = [plain, fused].map((p) => {
      const g = fromPir(p);
      return compile(g.graph, { params: g.params.map((nm) => (nm === 'w' ? w : bias)) });
    });
    const check = exes.map((e) => e.run([x])[0].dataSync() as number[]);
    const maxDiff = check[0].reduce((mx, v, i) => Math.max(mx, Math.abs(v - check[1][i])), 0);
    const [runPlain, runFused] = exes.map((e) => () => { e.run([x])[0].dispose(); });
    const t = timePair(runPlain, runFused);
    const gflops = (us: number) => (2 * mRows * k * n) / (us * 1e3);
    rows.push([`${mRows}x${k} @ ${k}x${n}`, act, threads, t.a, t.b, t.ratio, gflops(t.b), maxDiff]);
    console.log(rows[rows.length - 1].join('  '));
    for (const e of exes) e.dispose();
  }
  x.dispose(); w.dispose(); bias.dispose();
}
native.numThreads(poolSize);

writeSection('Fused GEMM epilogue', `\`npx tsx bench/fused_gemm.ts\`: act(x @ w + b) as matmul, add, act (three executor
instructions) against one fused_gemm_epilogue (the fusion pass's output), fp32, on 1 and 2 threads, load average
${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end. Median µs per run; ratio = median over samples of unfused / fused
timed back to back (> 1: fused is faster); max abs diff between the two outputs (0: bit-identical).

${table(['shape', 'act', 'threads', 'unfused µs', 'fused µs', 'ratio', 'fused GF/s', 'max abs diff'], rows)}
`);

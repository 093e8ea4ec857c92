// fp32 GEMM throughput: Skiff's native `matmul` kernel against onnxruntime-node's MatMul,
// measured in the same process so the ratio is meaningful on a noisy VM.
//
//   npx tsx bench/gemm.ts [--quick]
//
// Writes the "## GEMM (fp32)" section of bench/results.md.
//
// Method: for each thread count, rounds alternate Skiff and ORT over all sizes; each sample
// times a loop of calls lasting >= ~25 ms; the reported figure is the median over all samples.
// ORT's intra-op threads spin for a while after each run, so we pause between engines to
// keep them from stealing a core from the next measurement.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import * as ort from 'onnxruntime-node';
import { matmulModel } from './onnx_matmul_model.js';
import { median, table, writeSection } from './results.js';

interface Addon {
  fromBytes(dtype: number, shape: readonly number[], data: ArrayBufferView): number;
  empty(dtype: number, shape: readonly number[]): number;
  toBytes(h: number): ArrayBuffer;
  run(kernel: number, inputs: readonly number[], outputs: readonly number[], attrs?: readonly number[]): void;
  kernelId(name: string): number;
  numThreads(n?: number): number;
  release(h: number): boolean;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const addon = createRequire(import.meta.url)(join(root, 'build/Release/skiff_native.node')) as Addon;
const F32 = 0;

const quick = process.argv.includes('--quick');
const SIZES = [256, 512, 1024];
const THREADS = [1, 2];
const ROUNDS = quick ? 2 : 5;
const SAMPLES_PER_ROUND = quick ? 2 : 3;
const MIN_SAMPLE_MS = 25;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const gflops = (n: number, ms: number) => (2 * n * n * n) / (ms * 1e6);

function randomMatrix(n: number, seed: number): Float32Array {
  const a = new Float32Array(n * n);
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;  // LCG: reproducible inputs
    a[i] = s / 2 ** 31 - 1;
  }
  return a;
}

/** Calls per sample so that one sample lasts about MIN_SAMPLE_MS. */
function repsFor(n: number): number {
  const estMs = (2 * n ** 3) / 150e6;  // ~150 GF/s
  return Math.max(1, Math.ceil(MIN_SAMPLE_MS / estMs));
}

interface Case {
  n: number;
  a: Float32Array;
  b: Float32Array;
  skiff: { x: number; y: number; out: number; run: () => void };
  ortDyn?: { session: ort.InferenceSession; feeds: Record<string, ort.Tensor>; fetches: Record<string, ort.Tensor> };
  ortConst?: { session: ort.InferenceSession; feeds: Record<string, ort.Tensor>; fetches: Record<string, ort.Tensor> };
  samples: { skiff: number[]; ortDyn: number[]; ortConst: number[] };
}

const matmulId = addon.kernelId('matmul');
if (matmulId < 0) throw new Error('matmul kernel is not registered in the addon');

function skiffCase(n: number, a: Float32Array, b: Float32Array) {
  const x = addon.fromBytes(F32, [n, n], a);
  const y = addon.fromBytes(F32, [n, n], b);
  const out = addon.empty(F32, [n, n]);
  const ins = [x, y], outs = [out], attrs = [0, 0];
  return { x, y, out, run: () => addon.run(matmulId, ins, outs, attrs) };
}

async function ortCase(n: number, a: Float32Array, b: Float32Array, threads: number, constB: boolean) {
  const model = matmulModel(n, n, n, constB ? { constB: b } : {});
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const feeds: Record<string, ort.Tensor> = { A: new ort.Tensor('float32', a, [n, n]) };
  if (!constB) feeds.B = new ort.Tensor('float32', b, [n, n]);
  // A pre-allocated output, as Skiff's kernel gets one: no allocation inside the timing.
  const fetches = { Y: new ort.Tensor('float32', new Float32Array(n * n), [n, n]) };
  return { session, feeds, fetches };
}

async function timeSkiff(c: Case, reps: number): Promise<number> {
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) c.skiff.run();
  return (performance.now() - t0) / reps;
}

async function timeOrt(o: NonNullable<Case['ortDyn']>, reps: number): Promise<number> {
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) await o.session.run(o.feeds, o.fetches);
  return (performance.now() - t0) / reps;
}

function maxRelDiff(p: Float32Array, q: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < p.length; i++) worst = Math.max(worst, Math.abs(p[i] - q[i]) / (1 + Math.abs(q[i])));
  return worst;
}

async function runThreads(threads: number, notes: string[]): Promise<(string | number)[][]> {
  addon.numThreads(threads);
  const cases: Case[] = [];
  for (const n of SIZES) {
    const a = randomMatrix(n, 1 + n), b = randomMatrix(n, 7 + n);
    const c: Case = { n, a, b, skiff: skiffCase(n, a, b), samples: { skiff: [], ortDyn: [], ortConst: [] } };
    c.ortDyn = await ortCase(n, a, b, threads, false);
    c.ortConst = await ortCase(n, a, b, threads, true);
    // Warm up both engines and check they agree.
    for (let i = 0; i < 3; i++) c.skiff.run();
    for (let i = 0; i < 3; i++) { await c.ortDyn.session.run(c.ortDyn.feeds, c.ortDyn.fetches); await c.ortConst.session.run(c.ortConst.feeds, c.ortConst.fetches); }
    const ref = (await c.ortDyn.session.run(c.ortDyn.feeds)).Y.data as Float32Array;
    const diff = maxRelDiff(new Float32Array(addon.toBytes(c.skiff.out)), ref);
    if (!(diff < 1e-3)) throw new Error(`Skiff and ORT disagree at ${n}: max rel diff ${diff}`);
    if (threads === 1) notes.push(`${n}: max rel diff vs ORT ${diff.toExponential(1)}`);
    cases.push(c);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const reps = repsFor(c.n);
      for (let s = 0; s < SAMPLES_PER_ROUND; s++) c.samples.skiff.push(await timeSkiff(c, reps));
      await sleep(30);
      for (let s = 0; s < SAMPLES_PER_ROUND; s++) c.samples.ortDyn.push(await timeOrt(c.ortDyn!, reps));
      for (let s = 0; s < SAMPLES_PER_ROUND; s++) c.samples.ortConst.push(await timeOrt(c.ortConst!, reps));
      await sleep(30);  // let ORT's spinning workers go to sleep before Skiff runs again
    }
  }
  const rows: (string | number)[][] = [];
  for (const c of cases) {
    const sk = gflops(c.n, median(c.samples.skiff));
    const od = gflops(c.n, median(c.samples.ortDyn));
    const oc = gflops(c.n, median(c.samples.ortConst));
    const best = gflops(c.n, Math.min(...c.samples.skiff));
    rows.push([c.n, threads, sk.toFixed(1), best.toFixed(1), od.toFixed(1), oc.toFixed(1), (sk / od).toFixed(2), (sk / oc).toFixed(2)]);
    console.log(`n=${c.n} t=${threads}: Skiff ${sk.toFixed(1)} GF/s (best ${best.toFixed(1)}), ORT ${od.toFixed(1)} (B const ${oc.toFixed(1)}), ratio ${(sk / od).toFixed(2)} / ${(sk / oc).toFixed(2)}`);
    await c.ortDyn!.session.release();
    await c.ortConst!.session.release();
    addon.release(c.skiff.x); addon.release(c.skiff.y); addon.release(c.skiff.out);
  }
  return rows;
}

function cpuInfo(): string {
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    const model = /model name\s*:\s*(.*)/.exec(text)?.[1]?.trim() ?? 'unknown CPU';
    const isa = / avx512f /.test(text) ? 'AVX-512' : / avx2 /.test(text) ? 'AVX2' : 'no AVX2';
    return `${model}, ${isa}`;
  } catch {
    return 'unknown CPU';
  }
}

async function main() {
  const loadBefore = os.loadavg()[0];
  const originalThreads = addon.numThreads();
  const notes: string[] = [];
  const rows: (string | number)[][] = [];
  for (const t of THREADS) rows.push(...(await runThreads(t, notes)));
  addon.numThreads(originalThreads);
  const body = [
    `C = A x B, square float32, row-major, same process. GF/s = 2n^3 / median time over ${ROUNDS * SAMPLES_PER_ROUND} samples`,
    `(each a loop of calls lasting >= ${MIN_SAMPLE_MS} ms; "best" is the fastest sample). Skiff: \`matmul\` kernel through`,
    'the addon (`run` on handles, output preallocated). ORT: onnxruntime-node 1.30 MatMul, `intraOpNumThreads` = threads,',
    'preallocated output; "ORT" feeds B as an input (packed on every run, like Skiff), "ORT B const" bakes B in as an',
    'initializer (pre-packed once at session creation). Ratio = Skiff / ORT.',
    '',
    table(['n', 'threads', 'Skiff GF/s', 'Skiff best', 'ORT GF/s', 'ORT B const', 'Skiff/ORT', 'Skiff/ORT B const'], rows),
    '',
    `CPU: ${cpuInfo()}. 1-minute load average ${loadBefore.toFixed(2)} before / ${os.loadavg()[0].toFixed(2)} after the run`,
    `(other processes on the machine make every figure lower). Agreement with ORT: ${notes.join('; ')}.`,
  ].join('\n');
  writeSection('GEMM (fp32)', body);
  console.log('wrote bench/results.md section "GEMM (fp32)"');
}

await main();

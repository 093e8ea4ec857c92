// Elementwise throughput and eager dispatch overhead. Run: npx tsx bench/elementwise.ts
// Writes the "Elementwise" section of bench/results.md.
//  - add of 16M float32: GB/s counting 3 x 64 MB of traffic, on 1 and 2 threads; once through
//    paddle.add (a fresh, zero-filled 64 MB output every call) and once into a preallocated
//    output through native.run (the kernel alone).
//  - unary ops on 16M float32 (2 x 64 MB traffic), and a full sum (64 MB read).
//  - dispatch: paddle.add on 1-element tensors, microseconds per op including dispose().
import { paddle } from '../src/paddle.js';
import { native } from '../src/native.js';
import { DTYPE_CODE } from '../src/tensor/dtype.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { median, table, writeSection } from './results.js';

const N = 16 * 1024 * 1024;
const MB = N * 4;
const REPS = 15;

function randomFloats(n: number, seed: number, lo: number, hi: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = lo + ((hi - lo) * s) / 4294967296;
  }
  return a;
}

/** [min, median] milliseconds of `fn` over REPS runs after two warm-up runs. */
function timeMs(fn: () => void): [number, number] {
  fn();
  fn();
  const xs: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return [Math.min(...xs), median(xs)];
}

const gbs = (bytes: number, ms: number): string => (bytes / 1e9 / (ms / 1e3)).toFixed(1);

const a = paddle.to_tensor(randomFloats(N, 1, -4, 4)) as Tensor;
const b = paddle.to_tensor(randomFloats(N, 2, -4, 4)) as Tensor;
const pos = paddle.abs(a) as Tensor;
const outH = native.empty(DTYPE_CODE.float32, [N]);
const sumOut = native.empty(DTYPE_CODE.float32, []);

interface Case { name: string; bytes: number; api: () => void; kernel: () => void }
const k = (name: string): number => native.kernelId(name);
const cases: Case[] = [
  { name: 'add', bytes: 3 * MB, api: () => (paddle.add(a, b) as Tensor).dispose(), kernel: () => native.run(k('add'), [a.handle, b.handle], [outH], []) },
  ...['relu', 'exp', 'tanh', 'sigmoid', 'sqrt'].map((op): Case => {
    const fn = op === 'relu' || op === 'sigmoid' ? paddle.nn.functional[op] : paddle[op];
    const x = op === 'sqrt' ? pos : a;
    return { name: op, bytes: 2 * MB, api: () => (fn(x) as Tensor).dispose(), kernel: () => native.run(k(op), [x.handle], [outH], []) };
  }),
  { name: 'sum (all, to 0-dim)', bytes: MB, api: () => (paddle.sum(a) as Tensor).dispose(), kernel: () => native.run(k('sum'), [a.handle], [sumOut], [0, 0]) },
];

const defaultThreads = native.numThreads();
const rows: (string | number)[][] = [];
for (const c of cases) {
  for (const threads of [1, 2]) {
    native.numThreads(threads);
    const [kmin, kmed] = timeMs(c.kernel);
    const [amin, amed] = timeMs(c.api);
    rows.push([`${c.name} 16M float32`, threads, kmin.toFixed(2), gbs(c.bytes, kmin), gbs(c.bytes, kmed), amin.toFixed(1), amed.toFixed(1)]);
  }
}
native.numThreads(defaultThreads);
native.release(outH);
native.release(sumOut);
pos.dispose();

// Dispatch overhead: tiny tensors, so the time is the JS -> native path (infer, allocation, run, dispose).
const s1 = paddle.to_tensor([1], 'float32') as Tensor;
const s2 = paddle.to_tensor([2], 'float32') as Tensor;
const ITER = 200_000;
for (let i = 0; i < 20_000; i++) (paddle.add(s1, s2) as Tensor).dispose();
const per: number[] = [];
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  for (let i = 0; i < ITER; i++) (paddle.add(s1, s2) as Tensor).dispose();
  per.push(((performance.now() - t0) * 1e3) / ITER);
}
const dispatchUs = median(per);

const body = [
  table(['op', 'threads', 'kernel ms (min)', 'kernel GB/s (min)', 'kernel GB/s (median)', 'API ms (min)', 'API ms (median)'], rows),
  '',
  `Dispatch: \`paddle.add\` on 1-element float32 tensors, including \`dispose()\`: **${dispatchUs.toFixed(2)} µs/op** (median of 5 x ${ITER / 1000}k calls).`,
  '',
  'GB/s counts 3 x 64 MB for add, 2 x 64 MB for unary ops, 64 MB for sum. "kernel" runs the native kernel into a',
  'preallocated output (`native.run`); "API" is the public call (`paddle.add`, `paddle.exp`, ...) with `dispose()`,',
  'which allocates a fresh zero-filled 64 MB output each time: on this VM first-touch page faults cost',
  '~200 ms per 64 MB (12 µs per 4 KB page), so API rows measure the allocator, not the kernel.',
  'The machine was shared with other jobs while measuring (load average ~5 on 2 cores): trust the min columns.',
].join('\n');
writeSection('Elementwise', body);
console.log(body);
a.dispose();
b.dispose();
s1.dispose();
s2.dispose();

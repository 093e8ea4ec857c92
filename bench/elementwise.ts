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
const REPS = 9;

function randomFloats(n: number, seed: number, lo: number, hi: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = lo + ((hi - lo) * s) / 4294967296;
  }
  return a;
}

/** Median milliseconds of `fn` over REPS runs after two warm-up runs. */
function timeMs(fn: () => void): number {
  fn();
  fn();
  const xs: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

const gbs = (bytes: number, ms: number): string => (bytes / 1e9 / (ms / 1e3)).toFixed(1);

const a = paddle.to_tensor(randomFloats(N, 1, -4, 4)) as Tensor;
const b = paddle.to_tensor(randomFloats(N, 2, -4, 4)) as Tensor;
const addId = native.kernelId('add');
const outH = native.empty(DTYPE_CODE.float32, [N]);

const defaultThreads = native.numThreads();
const rows: (string | number)[][] = [];
for (const threads of [1, 2]) {
  native.numThreads(threads);
  const viaApi = timeMs(() => (paddle.add(a, b) as Tensor).dispose());
  rows.push([`add 16M float32, paddle.add`, threads, viaApi.toFixed(2), gbs(3 * MB, viaApi)]);
  const kernel = timeMs(() => native.run(addId, [a.handle, b.handle], [outH], []));
  rows.push([`add 16M float32, kernel into preallocated output`, threads, kernel.toFixed(2), gbs(3 * MB, kernel)]);
  for (const op of ['relu', 'exp', 'tanh', 'sigmoid', 'sqrt']) {
    const fn = op === 'relu' || op === 'sigmoid' ? paddle.nn.functional[op] : paddle[op];
    const x = op === 'sqrt' ? (paddle.abs(a) as Tensor) : a;
    const ms = timeMs(() => (fn(x) as Tensor).dispose());
    rows.push([`${op} 16M float32`, threads, ms.toFixed(2), gbs(2 * MB, ms)]);
    if (x !== a) x.dispose();
  }
  const ms = timeMs(() => (paddle.sum(a) as Tensor).dispose());
  rows.push(['sum 16M float32 (to 0-dim, double accumulation)', threads, ms.toFixed(2), gbs(MB, ms)]);
}
native.numThreads(defaultThreads);
native.release(outH);

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
  table(['op', 'threads', 'ms (median)', 'GB/s'], rows),
  '',
  `Dispatch: \`paddle.add\` on 1-element float32 tensors, including \`dispose()\`: **${dispatchUs.toFixed(2)} µs/op** (median of 5 x ${ITER / 1000}k calls).`,
  '',
  'GB/s counts 3 x 64 MB for add, 2 x 64 MB for unary ops, 64 MB for sum. `paddle.add` rows include allocating',
  'and zero-filling the 64 MB output (native Storage memsets every new buffer) and its page faults;',
  'the preallocated row is the kernel alone.',
].join('\n');
writeSection('Elementwise', body);
console.log(body);
a.dispose();
b.dispose();
s1.dispose();
s2.dispose();

// ResNet-50's spatial convolutions (3x3 stride 1 and 2, the 7x7/2 stem) one layer at a time, as
// the predictor runs them, next to onnxruntime-node's Conv and to Skiff's GEMM on the layer's
// im2col shape, all on the same thread count. Skiff: a one-layer Conv2D (with bias, as conv+bn
// folding leaves it) saved with paddle.jit.save and compiled as the predictor does (constant
// weights: packed or transformed once); its time is the conv instruction's median from
// Executable.profile (an abs follows, so the conv writes a recycled plan buffer, not a fresh
// output). ORT: Conv with W and B as initializers, a pre-allocated output. GEMM: the matmul
// kernel on [Cout, K] x [K, OH*OW] per image (times the batch), both operands packed per call:
// roughly what the implicit GEMM could reach. Prints only (no results.md section).
//   Run: npx tsx bench/conv_spatial.ts [--threads 1] [--batch 1] [--runs 15] [--only 3x3s1|name]
// SKIFF_CONV_WINOGRAD=0 turns the Winograd path off (for A/B runs in two processes).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { savedPlan } from './export_zoo.js';
import { initializer, PbWriter, valueInfo } from './onnx_matmul_model.js';
import { median } from './results.js';

const args = process.argv.slice(2);
const flag = (name: string, def: string): string => { const i = args.indexOf(name); return i < 0 ? def : args[i + 1]; };
const threads = Number(flag('--threads', '1'));
const batch = Number(flag('--batch', '1'));
const runs = Number(flag('--runs', '15'));
const only = flag('--only', '');

interface Layer { name: string; c: number; cout: number; h: number; k: number; s: number; p: number; count: number }
// count: how many times the shape occurs in ResNet-50 (v1.5: the stride sits on the 3x3 conv).
const layers: Layer[] = [
  { name: 'stem 7x7/2', c: 3, cout: 64, h: 224, k: 7, s: 2, p: 3, count: 1 },
  { name: 'conv2 3x3 56', c: 64, cout: 64, h: 56, k: 3, s: 1, p: 1, count: 3 },
  { name: 'conv3_1 3x3/2 56', c: 128, cout: 128, h: 56, k: 3, s: 2, p: 1, count: 1 },
  { name: 'conv3 3x3 28', c: 128, cout: 128, h: 28, k: 3, s: 1, p: 1, count: 3 },
  { name: 'conv4_1 3x3/2 28', c: 256, cout: 256, h: 28, k: 3, s: 2, p: 1, count: 1 },
  { name: 'conv4 3x3 14', c: 256, cout: 256, h: 14, k: 3, s: 1, p: 1, count: 5 },
  { name: 'conv5_1 3x3/2 14', c: 512, cout: 512, h: 14, k: 3, s: 2, p: 1, count: 1 },
  { name: 'conv5 3x3 7', c: 512, cout: 512, h: 7, k: 3, s: 1, p: 1, count: 2 },
].filter((l) => !only || (only === '3x3s1' ? l.k === 3 && l.s === 1 : l.name.includes(only)));

function convModel(l: Layer, xs: number[], out: number[], w: Float32Array, b: Float32Array): Uint8Array {
  const ints = (name: string, v: number[]) => { const a = new PbWriter().string(1, name); for (const e of v) a.int(8, e); return a.int(20, 7); };
  const node = new PbWriter().string(1, 'X').string(1, 'W').string(1, 'B').string(2, 'Y').string(3, 'conv').string(4, 'Conv')
    .message(5, ints('kernel_shape', [l.k, l.k])).message(5, ints('pads', [l.p, l.p, l.p, l.p])).message(5, ints('strides', [l.s, l.s]));
  const graph = new PbWriter().message(1, node).string(2, 'conv').message(5, initializer('W', [l.cout, l.c, l.k, l.k], w))
    .message(5, initializer('B', [l.cout], b)).message(11, valueInfo('X', xs)).message(12, valueInfo('Y', out));
  return new PbWriter().int(1, 8).string(2, 'skiff-bench').message(7, graph).message(8, new PbWriter().string(1, '').int(2, 17)).finish();
}

/** Median ms of fn over `n` timed calls (after two warm-ups). */
async function timeMed(fn: () => unknown, n: number): Promise<number> {
  for (let i = 0; i < 2; i++) await fn();
  const ts: number[] = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); await fn(); ts.push(performance.now() - t0); }
  return median(ts);
}

native.numThreads(threads);
console.log(`load ${loadavg().map((v) => v.toFixed(2)).join(' / ')}; ${threads} threads; batch ${batch}; winograd ${process.env.SKIFF_CONV_WINOGRAD ?? 'default'}`);
console.log('layer                 ms Skiff   GF/s   ms ORT   GF/s  Skiff/ORT  ms GEMM  GF/s  maxdiff');
const dir = mkdtempSync(join(tmpdir(), 'skiff-convsp-'));
let totS = 0, totO = 0;
try {
  for (const l of layers) {
    paddle.seed(1);
    const conv = new paddle.nn.Conv2D(l.c, l.cout, l.k, l.s, l.p);
    // abs after the conv: the conv writes a plan buffer (recycled across runs), not the program's
    // output, whose fresh pages would add first-touch faults to the conv's time.
    const layer = new (class extends paddle.nn.Layer { c = conv; forward(x: Tensor) { return paddle.abs(this.c.call(x) as Tensor); } })();
    layer.eval();
    const prefix = join(dir, 'c');
    paddle.jit.save(layer, prefix, { input_spec: [new paddle.static.InputSpec([null, l.c, l.h, l.h], 'float32', 'x')] });
    const { exe, bound } = savedPlan(prefix, true);
    const x = paddle.randn([batch, l.c, l.h, l.h]) as Tensor;
    const prof = exe.profile([x], runs, bound);
    let ci = prof.lowered.instrs.findIndex((ins: any) => String(ins.op ?? ins.name ?? '').includes('conv'));
    if (ci < 0) ci = prof.ns.indexOf(Math.max(...prof.ns));
    const sMs = prof.ns[ci] / 1e6;
    const [y] = exe.run([x], bound);
    const oh = Math.floor((l.h + 2 * l.p - l.k) / l.s) + 1;
    const outShape = [batch, l.cout, oh, oh];
    const ys = Float32Array.from(y.rawData() as Float32Array);
    y.dispose();
    const wd = Float32Array.from((conv as any).weight.rawData() as Float32Array), bd = Float32Array.from((conv as any).bias.rawData() as Float32Array);
    const session = await ort.InferenceSession.create(convModel(l, [batch, l.c, l.h, l.h], outShape, wd, bd), {
      intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
    });
    const feeds = { X: new ort.Tensor('float32', Float32Array.from(x.rawData() as Float32Array), x.shape as number[]) };
    const fetches = { Y: new ort.Tensor('float32', new Float32Array(ys.length), outShape) };
    await session.run(feeds, fetches);
    const ref = fetches.Y.data as Float32Array;
    let diff = 0;
    for (let i = 0; i < ref.length; i++) diff = Math.max(diff, Math.abs(Math.abs(ref[i]) - ys[i]) / (1 + Math.abs(ref[i])));
    const oMs = await timeMed(() => session.run(feeds, fetches), runs);
    await session.release();
    // The im2col GEMM of one image: [Cout, K] x [K, P], per image.
    const K = l.c * l.k * l.k, P = oh * oh;
    const A = paddle.randn([l.cout, K]) as Tensor, B = paddle.randn([K, P]) as Tensor;
    const gMs = batch * await timeMed(() => { (paddle.matmul(A, B) as Tensor).dispose(); }, runs);
    A.dispose(); B.dispose();
    const gf = (2 * batch * l.cout * K * P) / 1e9;
    totS += l.count * sMs; totO += l.count * oMs;
    console.log(`${l.name.padEnd(20)} ${sMs.toFixed(3).padStart(8)} ${(gf / sMs * 1e3).toFixed(0).padStart(6)} ${oMs.toFixed(3).padStart(8)} ${(gf / oMs * 1e3).toFixed(0).padStart(6)} ${(sMs / oMs).toFixed(2).padStart(9)}  ${gMs.toFixed(3).padStart(7)} ${(gf / gMs * 1e3).toFixed(0).padStart(5)}  ${diff.toExponential(1)}`);
    x.dispose(); exe.dispose();
  }
  console.log(`ResNet-50 total (x count): Skiff ${totS.toFixed(2)} ms, ORT ${totO.toFixed(2)} ms, ratio ${(totS / totO).toFixed(2)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

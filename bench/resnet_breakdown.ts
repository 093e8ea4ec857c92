// Where ResNet-50's predictor time goes, by layer kind: the per-instruction profile of the saved
// model (as bench/predictor_profile.ts takes it) summed into stem 7x7 / 3x3 / 1x1 stride 1 /
// 1x1 stride 2 convolutions, residual add + relu, pools and the fc tail, with GF/s per kind.
// With --layers, each distinct 1x1 conv shape is also timed alone next to a plain GEMM of the
// same M (Cout) / N (pixels) / K (Cin) and ONNX Runtime's Conv on the same shape (1 thread each
// unless --threads), so the 1x1 layers can be judged against both. Prints only.
// With --ort, the whole model is also timed against ONNX Runtime on the same weights (alternating
// blocks of runs, as bench/export_latency.ts does, but at --threads).
//   Run: npx tsx bench/resnet_breakdown.ts [--threads T] [--batch 1,8] [--runs N] [--layers] [--ort] [--model resnet50]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { profileRows } from '../src/executor/profile_format.js';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';
import { chooseModels, randomInput, savedPlan, saveModel } from './export_zoo.js';
import { initializer, PbWriter, valueInfo } from './onnx_matmul_model.js';
import { median, timeCallsAsync } from './results.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const bool = (name: string): boolean => { const i = args.indexOf(name); if (i >= 0) args.splice(i, 1); return i >= 0; };
const layers = bool('--layers');
const withOrt = bool('--ort');
const runs = Number(flag('--runs') ?? 15);
const threads = Number(flag('--threads') ?? 1);
const batches = (flag('--batch') ?? '1,8').split(',').map(Number);
const [model] = chooseModels('resnet_breakdown', [flag('--model') ?? 'resnet50']);
native.numThreads(threads);

interface Kind { us: number; flops: number; calls: number }
const CONV = new Set(['conv2d', 'fused_conv2d_add_act']);

/** 'conv 3x3', 'conv 1x1 s1', ... from the weight and the in/out spatial sizes. */
function convKind(shapes: number[][]): string {
  const [x, w] = shapes, out = shapes[shapes.length - 1];
  const stride = Math.round(x[2] / out[2]);
  return `conv ${w[2]}x${w[3]}${stride > 1 ? ' s' + stride : ' s1'}`;
}

const dir = mkdtempSync(join(tmpdir(), 'skiff-breakdown-'));
const oneByOne = new Map<string, { x: number[]; w: number[]; stride: number; us: number[] }>();
try {
  console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${threads} threads; ${runs} runs`);
  const prefix = saveModel(model, dir, withOrt);
  const { exe, bound } = savedPlan(prefix, true);
  for (const b of batches) {
    const x = randomInput(model, b);
    const prof = exe.profile([x], runs, bound);
    const p = prof.lowered;
    const kinds = new Map<string, Kind>();
    let total = 0;
    for (const r of profileRows(prof)) {
      const I = p.instrs[r.instr];
      const shapes = [...I.ins, ...I.outs].map((s) => p.slots[s].shape as number[]);
      let kind = r.kind === 'kernel' ? r.op : `${r.kind} ${r.op}`, flops = 0;
      if (CONV.has(r.op)) {
        kind = convKind(shapes);
        const w = shapes[1], out = shapes[shapes.length - 1];
        flops = 2 * out.reduce((a, c) => a * c, 1) * w[1] * w[2] * w[3];
        if (w[2] === 1 && w[3] === 1 && b === batches[0]) {
          const key = `${JSON.stringify(shapes[0])} ${JSON.stringify(w)}`;
          const e = oneByOne.get(key) ?? { x: shapes[0], w, stride: Math.round(shapes[0][2] / out[2]), us: [] };
          e.us.push(r.us);
          oneByOne.set(key, e);
        }
      }
      const e = kinds.get(kind) ?? { us: 0, flops: 0, calls: 0 };
      e.us += r.us; e.flops += flops; e.calls++;
      kinds.set(kind, e);
      total += r.us;
    }
    console.log(`\n== ${model.name} batch ${b}: run() median ${(median(prof.runMs)).toFixed(2)} ms, instructions ${(total / 1e3).toFixed(2)} ms`);
    console.log('kind                 calls       ms   share    GF/s');
    for (const [k, e] of [...kinds].sort((a, c) => c[1].us - a[1].us))
      console.log(`  ${k.padEnd(18)} ${String(e.calls).padStart(5)} ${(e.us / 1e3).toFixed(2).padStart(8)} ${(100 * e.us / total).toFixed(1).padStart(6)}% ${e.flops ? (e.flops / e.us / 1e3).toFixed(1).padStart(7) : ''}`);
    if (withOrt) await versusOrt(prefix, x, b);
    x.dispose();
  }
  exe.dispose();

  if (layers) {
    const b = batches[0];
    console.log(`\n== 1x1 convs at batch ${b}: in the model (median of its instances), alone (eager conv2d), GEMM M=Cout N=pixels K=Cin, ORT Conv; GF/s`);
    console.log('layer                                   model   alone    gemm     ORT');
    for (const e of oneByOne.values()) {
      const xs = e.x, w = e.w;
      const oh = Math.ceil(xs[2] / e.stride), ow = Math.ceil(xs[3] / e.stride);
      const flops = 2 * b * w[0] * oh * ow * w[1];
      const gf = (us: number) => (flops / us / 1e3).toFixed(1);
      const xt = paddle.randn(xs) as Tensor, wt = paddle.randn(w) as Tensor, bt = paddle.randn([w[0]]) as Tensor;
      const alone = await timeCallsAsync(() => scope(() => { paddle.nn.functional.conv2d(xt, wt, bt, e.stride, 0); }), { minMs: 300, maxReps: 60 });
      // The GEMM of one image: W [Cout, Cin] x X [Cin, P], batch images in turn.
      const wm = paddle.randn([w[0], w[1]]) as Tensor, xm = paddle.randn([w[1], oh * ow]) as Tensor;
      const gemm = await timeCallsAsync(() => scope(() => { for (let i = 0; i < b; i++) paddle.matmul(wm, xm); }), { minMs: 300, maxReps: 60 });
      const ortUs = await ortConv(xs, w, e.stride, [b, w[0], oh, ow]);
      console.log(`  ${(JSON.stringify(xs) + ' x ' + JSON.stringify(w)).padEnd(38)} ${gf(median(e.us)).padStart(6)} ${gf(alone.med * 1e3).padStart(7)} ${gf(gemm.med * 1e3).padStart(7)} ${gf(ortUs).padStart(7)}`);
      for (const t of [xt, wt, bt, wm, xm]) t.dispose();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** µs per call of ORT's Conv (weight and bias as initializers) on this shape. */
async function ortConv(xs: number[], w: number[], stride: number, out: number[]): Promise<number> {
  const ints = (name: string, v: number[]) => { const a = new PbWriter().string(1, name); for (const e of v) a.int(8, e); return a.int(20, 7); };
  const node = new PbWriter().string(1, 'X').string(1, 'W').string(1, 'B').string(2, 'Y').string(3, 'conv').string(4, 'Conv')
    .message(5, ints('kernel_shape', [1, 1])).message(5, ints('strides', [stride, stride]));
  const wd = new Float32Array(w.reduce((a, c) => a * c, 1)).map(() => Math.random() - 0.5);
  const graph = new PbWriter().message(1, node).string(2, 'conv1x1').message(5, initializer('W', w, wd))
    .message(5, initializer('B', [w[0]], new Float32Array(w[0]).fill(0.1)))
    .message(11, valueInfo('X', xs)).message(12, valueInfo('Y', out));
  const bytes = new PbWriter().int(1, 8).string(2, 'skiff-bench').message(7, graph).message(8, new PbWriter().string(1, '').int(2, 17)).finish();
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
  const feeds = { X: new ort.Tensor('float32', new Float32Array(xs.reduce((a, c) => a * c, 1)).fill(0.5), xs) };
  const fetches = { Y: new ort.Tensor('float32', new Float32Array(out.reduce((a, c) => a * c, 1)), out) };
  const t = await timeCallsAsync(() => s.run(feeds, fetches), { minMs: 300, maxReps: 60 });
  await s.release();
  return t.med * 1e3;
}

/** Whole-model ms of the predictor and ORT, alternating blocks of 5 runs (first of each dropped). */
async function versusOrt(prefix: string, x: Tensor, b: number): Promise<void> {
  const pred = paddle.inference.create_predictor(new paddle.inference.Config(prefix));
  pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(x);
  const session = await ort.InferenceSession.create(new Uint8Array(readFileSync(`${prefix}.onnx`)),
    { intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
  const feeds = { x: new ort.Tensor('float32', Float32Array.from(x.rawData() as Float32Array), [...x.shape] as number[]) };
  const block = async (k: number): Promise<number> => {
    const t: number[] = [];
    for (let i = 0; i <= 5; i++) {
      const t0 = performance.now();
      if (k === 0) pred.run(); else await session.run(feeds);
      if (i > 0) t.push(performance.now() - t0);
    }
    return median(t);
  };
  await block(0); await block(1);
  const s: number[] = [], o: number[] = [], r: number[] = [];
  for (let i = 0; i < (b === 1 ? 10 : 4); i++) {
    const first = i % 2, a = await block(first), c = await block(1 - first);
    const [ts, to] = first === 0 ? [a, c] : [c, a];
    s.push(ts); o.push(to); r.push(ts / to);
  }
  console.log(`whole model vs ORT (${threads} threads): Skiff ${median(s).toFixed(2)} ms, ORT ${median(o).toFixed(2)} ms, paired ratio ${median(r).toFixed(2)}x`);
  await session.release();
  pred.dispose();
}

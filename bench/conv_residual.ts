// A ResNet-50 bottleneck's end, relu(conv1x1(h) + identity), as the inference pipeline left it
// before (conv2d, add, relu: three instructions, the add and relu passes over the tensor) and as
// the residual fusion leaves it (one fused_conv2d_add_act: conv, then one pass adding the identity).
// Both programs run on the executor with constant weights; paired samples alternate. Prints only.
//   Run: npx tsx bench/conv_residual.ts [--threads 1] [--batch 1,8]
import { loadavg } from 'node:os';
import { compile, fromPir } from '../src/executor/index.js';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { Builder, Program, tensorType } from '../src/pir/index.js';
import { fuseConvActPass, PassManager } from '../src/passes/index.js';
import { sym } from '../src/tensor/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { median } from './results.js';

const args = process.argv.slice(2);
const flag = (name: string, d: string): string => { const i = args.indexOf(name); return i < 0 ? d : args[i + 1]; };
const threads = Number(flag('--threads', '1'));
const batches = flag('--batch', '1,8').split(',').map(Number);
native.numThreads(threads);

// ResNet-50's block ends: [C_in (the 3x3's output), C_out, size].
const LAYERS: [number, number, number][] = [[64, 256, 56], [128, 512, 28], [256, 1024, 14], [512, 2048, 7]];

console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${threads} threads; ms per run, median of paired samples`);
console.log('layer                      batch   unfused     fused   fused/unfused');
for (const [cin, cout, hw] of LAYERS) {
  const p = new Program();
  const b = new Builder(p);
  const h = b.data('h', [sym('s0'), cin, hw, hw], 'float32');
  const id = b.data('id', [sym('s0'), cout, hw, hw], 'float32');
  const [y] = b.pd('conv2d', [h, b.parameter('w', tensorType('float32', [cout, cin, 1, 1])), b.parameter('b', tensorType('float32', [cout]))]);
  const [s] = b.pd('add', [y, id]);
  b.fetch(b.pd('relu', [s])[0], 'out');
  const fused = p.clone();
  new PassManager([fuseConvActPass()], { verify: true }).run(fused);
  const params: Record<string, Tensor> = { w: paddle.randn([cout, cin, 1, 1]) as Tensor, b: paddle.randn([cout]) as Tensor };
  const exes = [p, fused].map((q) => {
    const g = fromPir(q);
    return compile(g.graph, { params: g.params.map((n) => params[n]), constantParams: true });
  });
  for (const batch of batches) {
    const feeds = [paddle.randn([batch, cin, hw, hw]) as Tensor, paddle.randn([batch, cout, hw, hw]) as Tensor];
    const reps = Math.max(2, Math.round(40 / batch));
    const time = (k: number): number => {
      for (const t of exes[k].run(feeds)) t.dispose();
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) for (const t of exes[k].run(feeds)) t.dispose();
      return (performance.now() - t0) / reps;
    };
    const u: number[] = [], f: number[] = [], r: number[] = [];
    for (let i = 0; i < 15; i++) {
      const [a, c] = i % 2 ? [time(1), time(0)] : [time(0), time(1)];
      const [tu, tf] = i % 2 ? [c, a] : [a, c];
      u.push(tu); f.push(tf); r.push(tf / tu);
    }
    console.log(`  ${`${cin}->${cout} ${hw}x${hw}`.padEnd(24)} ${String(batch).padStart(5)} ${median(u).toFixed(3).padStart(9)} ${median(f).toFixed(3).padStart(9)} ${median(r).toFixed(3).padStart(9)}`);
    for (const t of feeds) t.dispose();
  }
  for (const e of exes) e.dispose();
  for (const t of Object.values(params)) t.dispose();
}

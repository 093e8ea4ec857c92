// paddle.jit.to_static for TypeScript models: eager vs translated for an MLP (batch 1) and
// ResNet-18 (batch 8), and the cached-call overhead of a tiny function. Writes bench/results.md
// "to_static (SOT) from TypeScript".
//
//   npx tsx bench/js_sot.ts
//
// The models' free variables (`paddle`, `T`, the block classes) come from the Skiff build plugin,
// as in a user's project: this file and models/ are bundled with esbuild through
// skiffScopePlugin (src/ is bundled as is), and the bundle runs in a child process with
// `--worker`. Inference: eval() under no_grad; eager and translated are timed in pairs
// (bench/results.ts timePair) in the same process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { to_static } from '../frontend/js/index.js';
import { resnet18 } from '../models/vision/resnet.js';
import { Layer, Linear } from '../src/nn/index.js';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { table, timePair, writeSection } from './results.js';

class MLP extends Layer {
  l1 = new Linear(64, 128);
  l2 = new Linear(128, 128);
  l3 = new Linear(128, 10);
  override forward(x: Tensor): Tensor {
    const F = paddle.nn.functional;
    return this.l3.forward(F.relu(this.l2.forward(F.relu(this.l1.forward(x))))) as Tensor;
  }
}

interface Row { eager: number; static: number; ratio: number; graphs: number; breaks: string[]; maxDiff: number; coldMs: number }

function maxAbsDiff(a: Tensor, b: Tensor): number {
  const x = a.dataSync() as number[], y = b.dataSync() as number[];
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - y[i]));
  return m;
}

function measureLayer(model: Layer, x: Tensor, samples: number, minMs: number): Row {
  model.eval();
  return paddle.no_grad(() => {
    const eagerOut = model.forward(x) as Tensor;
    const sm = to_static(model);
    const t0 = performance.now();
    const first = sm.forward(x) as Tensor;
    const coldMs = performance.now() - t0;
    const maxDiff = maxAbsDiff(first, eagerOut);
    const t = timePair(() => (model.forward(x) as Tensor).dispose(), () => (sm.forward(x) as Tensor).dispose(), samples, minMs);
    const info = sm.explain();
    return { eager: t.a, static: t.b, ratio: t.ratio, graphs: info.graphs, breaks: info.breaks.map((b) => `${b.code} ${b.detail}`), maxDiff, coldMs };
  });
}

function worker(): void {
  paddle.seed(0);
  const res: Record<string, unknown> = {};
  // Cached-call overhead: a one-op function on a 1-element tensor, eager vs its cached translation.
  const one = paddle.to_tensor([1], 'float32');
  const tiny = (x: Tensor): Tensor => paddle.add(x, one);
  const stiny = to_static(tiny);
  const x1 = paddle.to_tensor([1], 'float32');
  paddle.no_grad(() => {
    stiny(x1);
    const t = timePair(() => tiny(x1).dispose(), () => (stiny(x1) as Tensor).dispose(), 9, 100);
    res.tiny = { eager: t.a, static: t.b, graphs: stiny.explain().graphs, breaks: stiny.explain().breaks.map((b) => `${b.code} ${b.detail}`) };
  });
  res.mlp = measureLayer(new MLP(), paddle.randn([1, 64]), 9, 100);
  res.resnet = measureLayer(resnet18(), paddle.randn([8, 3, 64, 64]), 5, 400);
  process.stdout.write(`RESULT ${JSON.stringify(res)}\n`);
}

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = join(here, '..');
  const { build } = await import('esbuild');
  const { skiffScopePlugin } = await import('../frontend/js/plugin/esbuild.js');
  // Under node_modules/.cache so the native addon and packages resolve from the repository.
  const dir = join(root, 'node_modules', '.cache', 'skiff-bench-js-sot');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'js_sot.mjs');
  let printed: string;
  try {
    await build({
      entryPoints: [fileURLToPath(import.meta.url)], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20',
      external: ['esbuild', 'py310', 'py311', 'py312', 'py313', 'py314', 'pyodide', '*.node', 'onnxruntime-node', 'playwright-core'],
      banner: { js: "import { createRequire as __skiffCreateRequire } from 'node:module'; const require = __skiffCreateRequire(import.meta.url);" },
      plugins: [skiffScopePlugin({ filter: /[\\/](models|bench)[\\/][^\\/]+(\/[^\\/]+)?\.ts$/ })], logLevel: 'warning',
    });
    printed = execFileSync(process.execPath, [outfile, '--worker'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const line = printed.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`bench/js_sot: the worker printed no result:\n${printed}`);
  const r = JSON.parse(line.slice(7)) as { tiny: { eager: number; static: number; graphs: number; breaks: string[] }; mlp: Row; resnet: Row };
  const status = (x: { graphs: number; breaks: string[] }) => (x.breaks.length ? `${x.graphs} graph(s), breaks: ${x.breaks.join('; ')}` : `${x.graphs} graph, no breaks`);
  const rows = [
    ['MLP 64-128-128-10, batch 1', r.mlp.eager.toFixed(1), r.mlp.static.toFixed(1), `${r.mlp.ratio.toFixed(2)}x`, r.mlp.coldMs.toFixed(1), r.mlp.maxDiff.toExponential(1), status(r.mlp)],
    ['ResNet-18, batch 8, 3x64x64', (r.resnet.eager / 1000).toFixed(2) + ' ms', (r.resnet.static / 1000).toFixed(2) + ' ms', `${r.resnet.ratio.toFixed(2)}x`, r.resnet.coldMs.toFixed(1), r.resnet.maxDiff.toExponential(1), status(r.resnet)],
  ];
  const body = [
    'TypeScript models (this file and models/ bundled with esbuild through the Skiff scope plugin, run in Node), eval() under `paddle.no_grad`.',
    'Per-call medians of paired samples (eager and translated alternate, same process); speedup is the median of the per-pair ratios.',
    '',
    table(['case', 'eager µs', 'to_static µs', 'overhead'], [['`to_static((x) => paddle.add(x, one))` cached call, 1-element tensor', r.tiny.eager.toFixed(2), r.tiny.static.toFixed(2), `${(r.tiny.static - r.tiny.eager).toFixed(2)} µs (${status(r.tiny)})`]]),
    '',
    table(['model', 'eager', 'to_static', 'speedup', 'cold translation ms', 'max abs diff', 'capture'], rows),
  ].join('\n');
  writeSection('to_static (SOT) from TypeScript', body);
  console.log(body);
}

if (process.argv.includes('--worker')) worker();
else await main();

// Per-instruction profile of the convolution zoo models in the predictor (issue 13's conv gap):
// ResNet-18/50 and MobileNetV2 saved with paddle.jit.save (symbolic batch, as
// bench/export_latency.ts does), loaded back and run by the native runner timing each
// instruction (Executable.profile, formatted by formatProfile: top instructions and time per op).
// Prints only; export_latency.ts has the ORT comparison, predictor_profile.ts the text models.
//   Run: npx tsx bench/conv_profile.ts [--no-const] [--runs N] [--batch 1,8] [--top N] [--threads T] [model...]
//   (models: resnet18 resnet50 mobilenet_v2; --no-const: weights re-packed on every run)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, formatProfile, fromPir } from '../src/executor/index.js';
import { readModel } from '../src/jit/load.js';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { mobilenet_v2, resnet18, resnet50 } from '../models/vision/index.js';

const MODELS: Record<string, () => any> = { resnet18, resnet50, mobilenet_v2 };

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const noConst = args.includes('--no-const');
if (noConst) args.splice(args.indexOf('--no-const'), 1);
const runs = Number(flag('--runs') ?? 10);
const top = Number(flag('--top') ?? 12);
const threads = Number(flag('--threads') ?? 2);
const batches = (flag('--batch') ?? '1,8').split(',').map(Number);
for (const a of args) if (!(a in MODELS)) throw new Error(`conv_profile: no model '${a}' (have: ${Object.keys(MODELS).join(', ')})`);
const chosen = args.length ? args : Object.keys(MODELS);

native.numThreads(threads);
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${threads} threads; constantParams ${!noConst}; ${runs} runs`);
const dir = mkdtempSync(join(tmpdir(), 'skiff-conv-profile-'));
try {
  for (const name of chosen) {
    paddle.seed(1);
    const layer = MODELS[name]();
    layer.eval();
    const prefix = join(dir, name);
    paddle.jit.save(layer, prefix, { input_spec: [new paddle.static.InputSpec([null, 3, 224, 224], 'float32', 'x')] });
    const model = readModel(prefix);
    const g = fromPir(model.program);
    const byName = new Map(model.header.params.map((p, i) => [p.name, model.params[i]]));
    const bound = [...g.params.map((n) => byName.get(n)!), ...g.constants];
    const exe = compile(g.graph, { hostFns: g.hostFns, constantParams: !noConst });
    for (const b of batches) {
      const x = paddle.randn([b, 3, 224, 224]) as Tensor;
      console.log(`\n== ${name} batch ${b}`);
      console.log(formatProfile(exe.profile([x], runs, bound), top));
      x.dispose();
    }
    exe.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

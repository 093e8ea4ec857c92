// Per-instruction profile of the predictor on exported zoo models: where a run's time goes, per
// instruction (top ones, with shapes) and per op. Each model is saved with paddle.jit.save
// (symbolic batch, as bench/export_latency.ts does) and loaded back; the plan runs with the
// native runner timing each instruction (Executable.profile). Prints only (no results.md section):
// this is the tool for finding what to optimise next; export_latency.ts has the ORT comparison.
//   Run: npx tsx bench/predictor_profile.ts [--no-const] [--runs N] [--batch B] [model...]
//   (models: lenet bert_tiny gpt_mini; --no-const compiles without constantParams, i.e. the
//   GEMM weights are packed on every run as before they were cached)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, formatProfile, fromPir } from '../src/executor/index.js';
import { readModel } from '../src/jit/load.js';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { bert_tiny, gpt_mini } from '../models/text/index.js';

const nn = paddle.nn;
class LeNet extends nn.Layer {
  features = new nn.Sequential(new nn.Conv2D(1, 6, 3, 1, 1), new nn.ReLU(), new nn.MaxPool2D(2, 2), new nn.Conv2D(6, 16, 5, 1, 0), new nn.ReLU(), new nn.MaxPool2D(2, 2));
  fc = new nn.Sequential(new nn.Linear(400, 120), new nn.Linear(120, 84), new nn.Linear(84, 10));
  forward(x: Tensor) { return this.fc.call(paddle.flatten(this.features.call(x) as Tensor, 1)); }
}
class BertTinyEncoder extends nn.Layer {
  bert = bert_tiny();
  forward(ids: Tensor) { return (this.bert.call(ids) as Tensor[])[0]; }
}

const MODELS: Record<string, { build: () => any; tail: number[]; dtype: 'float32' | 'int64'; vocab?: number }> = {
  lenet: { build: () => new LeNet(), tail: [1, 28, 28], dtype: 'float32' },
  bert_tiny: { build: () => new BertTinyEncoder(), tail: [128], dtype: 'int64', vocab: 30522 },
  gpt_mini: { build: () => gpt_mini({ max_position_embeddings: 128 }), tail: [64], dtype: 'int64', vocab: 50257 },
};

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const noConst = args.includes('--no-const');
if (noConst) args.splice(args.indexOf('--no-const'), 1);
const runs = Number(flag('--runs') ?? 20);
const batches = (flag('--batch') ?? '1,8').split(',').map(Number);
for (const a of args) if (!(a in MODELS)) throw new Error(`predictor_profile: no model '${a}' (have: ${Object.keys(MODELS).join(', ')})`);
const chosen = args.length ? args : Object.keys(MODELS);

native.numThreads(2);
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' / ')}; constantParams ${!noConst}; ${runs} runs`);
const dir = mkdtempSync(join(tmpdir(), 'skiff-profile-'));
try {
  for (const name of chosen) {
    const m = MODELS[name];
    paddle.seed(1);
    const layer = m.build();
    layer.eval();
    const prefix = join(dir, name);
    paddle.jit.save(layer, prefix, { input_spec: [new paddle.static.InputSpec([null, ...m.tail], m.dtype, 'x')] });
    const model = readModel(prefix);
    const g = fromPir(model.program);
    const byName = new Map(model.header.params.map((p, i) => [p.name, model.params[i]]));
    const bound = [...g.params.map((n) => byName.get(n)!), ...g.constants];
    const exe = compile(g.graph, { hostFns: g.hostFns, constantParams: !noConst });
    for (const b of batches) {
      const shape = [b, ...m.tail];
      const x = (m.dtype === 'int64' ? paddle.randint(0, m.vocab!, shape, 'int64') : paddle.randn(shape)) as Tensor;
      console.log(`\n== ${name} batch ${b}`);
      console.log(formatProfile(exe.profile([x], runs, bound), 12));
      x.dispose();
    }
    exe.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

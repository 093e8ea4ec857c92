// CPU time per run of the exported zoo models: Skiff's predictor (and the same plan compiled
// without constantParams, i.e. GEMM weights packed on every run) next to onnxruntime-node, each
// on `THREADS` threads (default 1). process.cpuUsage() counts every thread of the process, so
// this measures work done rather than wall time and stays usable when other processes load the
// machine (bench/export_latency.ts, the wall-time table, needs a quiet machine). Ratios are medians
// of per-block ratios over 9 interleaved blocks. Prints only.
//   Run: [THREADS=1] npx tsx bench/export_cpu_time.ts [lenet|bert_tiny|gpt_mini ...]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { native } from '../src/native.js';
import { compile, fromPir } from '../src/executor/index.js';
import { readModel } from '../src/jit/load.js';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { bert_tiny, gpt_mini } from '../models/text/index.js';
import { median } from './results.js';
const nn = paddle.nn;
class LeNet extends nn.Layer {
  features = new nn.Sequential(new nn.Conv2D(1, 6, 3, 1, 1), new nn.ReLU(), new nn.MaxPool2D(2, 2), new nn.Conv2D(6, 16, 5, 1, 0), new nn.ReLU(), new nn.MaxPool2D(2, 2));
  fc = new nn.Sequential(new nn.Linear(400, 120), new nn.Linear(120, 84), new nn.Linear(84, 10));
  forward(x: Tensor) { return this.fc.call(paddle.flatten(this.features.call(x) as Tensor, 1)); }
}
class BertTinyEncoder extends nn.Layer { bert = bert_tiny(); forward(ids: Tensor) { return (this.bert.call(ids) as Tensor[])[0]; } }
const MODELS: Record<string, { build: () => any; tail: number[]; dtype: 'float32' | 'int64'; vocab?: number; reps: number }> = {
  lenet: { build: () => new LeNet(), tail: [1, 28, 28], dtype: 'float32', reps: 200 },
  bert_tiny: { build: () => new BertTinyEncoder(), tail: [128], dtype: 'int64', vocab: 30522, reps: 10 },
  gpt_mini: { build: () => gpt_mini({ max_position_embeddings: 128 }), tail: [64], dtype: 'int64', vocab: 50257, reps: 3 },
};
const threads = Number(process.env.THREADS ?? 1);
native.numThreads(threads);
const dir = mkdtempSync(join(tmpdir(), 'skiff-cpu-pair-'));
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' / ')}; ${threads} thread(s); CPU ms per run, median of 9 blocks`);
const cpu = (f: () => void, reps: number): number => { const c0 = process.cpuUsage(); for (let i = 0; i < reps; i++) f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1e3 / reps; };
try {
  const asked = process.argv.slice(2);
  for (const a of asked) if (!(a in MODELS)) throw new Error(`export_cpu_time: no model '${a}' (have: ${Object.keys(MODELS).join(', ')})`);
  for (const name of asked.length ? asked : Object.keys(MODELS)) {
    const m = MODELS[name];
    paddle.seed(1);
    const layer = m.build(); layer.eval();
    const prefix = join(dir, name);
    const spec = [new paddle.static.InputSpec([null, ...m.tail], m.dtype, 'x')];
    paddle.jit.save(layer, prefix, { input_spec: spec });
    paddle.onnx.export(layer, prefix, spec);
    const session = await ort.InferenceSession.create(new Uint8Array(readFileSync(`${prefix}.onnx`)), { intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
    for (const batch of [1, 8]) {
      const shape = [batch, ...m.tail];
      const x = (m.dtype === 'int64' ? paddle.randint(0, m.vocab!, shape, 'int64') : paddle.randn(shape)) as Tensor;
      const pred = paddle.inference.create_predictor(new paddle.inference.Config(prefix));
      pred.get_input_handle('x').copy_from_cpu(x);
      const feeds = { x: new ort.Tensor(m.dtype, m.dtype === 'int64' ? BigInt64Array.from(x.rawData() as BigInt64Array) : Float32Array.from(x.rawData() as Float32Array), shape) };
      // ORT's session.run is async but does its work synchronously inside run(); time it with await.
      const ortCpu = async (reps: number): Promise<number> => { const c0 = process.cpuUsage(); for (let i = 0; i < reps; i++) await session.run(feeds); const c = process.cpuUsage(c0); return (c.user + c.system) / 1e3 / reps; };
      const model = readModel(prefix);
      const g = fromPir(model.program);
      const byName = new Map(model.header.params.map((p, i) => [p.name, model.params[i]]));
      const bound = [...g.params.map((n) => byName.get(n)!), ...g.constants];
      const plain = compile(g.graph, { hostFns: g.hostFns });
      const runPlain = () => { for (const t of plain.run([x], bound)) t.dispose(); };
      runPlain();
      pred.run(); await session.run(feeds);
      const reps = batch === 1 ? m.reps : Math.max(1, Math.ceil(m.reps / 8));
      const s: number[] = [], o: number[] = [], r: number[] = [], p: number[] = [], rp: number[] = [];
      for (let k = 0; k < 9; k++) {
        const a = cpu(() => pred.run(), reps); const b = await ortCpu(reps); const c = cpu(runPlain, reps);
        s.push(a); o.push(b); p.push(c); r.push(a / b); rp.push(c / b);
      }
      console.log(`${name} b${batch}: skiff ${median(s).toFixed(3)} ms (weights packed per run: ${median(p).toFixed(3)}), ORT ${median(o).toFixed(3)} ms, ratio ${median(r).toFixed(2)} (per-run packing: ${median(rp).toFixed(2)})`);
      plain.dispose();
      pred.dispose(); x.dispose();
    }
    await session.release();
  }
} finally { rmSync(dir, { recursive: true, force: true }); }

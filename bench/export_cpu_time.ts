// CPU time per run of the exported zoo models: Skiff's predictor (and the same plan compiled
// without constantParams, i.e. GEMM weights packed on every run) next to onnxruntime-node, each
// on `THREADS` threads (default 1). process.cpuUsage() counts every thread of the process, so
// this measures work done rather than wall time and stays usable when other processes load the
// machine (bench/export_latency.ts, the wall-time table, needs a quiet machine). Ratios are medians
// of per-block ratios over 9 interleaved blocks. Prints only.
//   Run: [THREADS=1] npx tsx bench/export_cpu_time.ts [model...]   (default: lenet bert_tiny gpt_mini)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { chooseModels, randomInput, savedPlan, saveModel } from './export_zoo.js';
import { median } from './results.js';

// The convolution models are left out by default (minutes per model at these rep counts).
const DEFAULT = ['lenet', 'bert_tiny', 'gpt_mini'];
const threads = Number(process.env.THREADS ?? 1);
native.numThreads(threads);
const dir = mkdtempSync(join(tmpdir(), 'skiff-cpu-pair-'));
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' / ')}; ${threads} thread(s); CPU ms per run, median of 9 blocks`);
const cpu = (f: () => void, reps: number): number => { const c0 = process.cpuUsage(); for (let i = 0; i < reps; i++) f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1e3 / reps; };
try {
  const asked = process.argv.slice(2);
  for (const m of chooseModels('export_cpu_time', asked.length ? asked : DEFAULT)) {
    const prefix = saveModel(m, dir, true);
    const session = await ort.InferenceSession.create(new Uint8Array(readFileSync(`${prefix}.onnx`)), { intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
    for (const batch of [1, 8]) {
      const shape = [batch, ...m.tail];
      const x = randomInput(m, batch);
      const pred = paddle.inference.create_predictor(new paddle.inference.Config(prefix));
      pred.get_input_handle('x').copy_from_cpu(x);
      const feeds = { x: new ort.Tensor(m.dtype, m.dtype === 'int64' ? BigInt64Array.from(x.rawData() as BigInt64Array) : Float32Array.from(x.rawData() as Float32Array), shape) };
      // ORT's session.run is async but does its work synchronously inside run(); time it with await.
      const ortCpu = async (reps: number): Promise<number> => { const c0 = process.cpuUsage(); for (let i = 0; i < reps; i++) await session.run(feeds); const c = process.cpuUsage(c0); return (c.user + c.system) / 1e3 / reps; };
      const { exe: plain, bound } = savedPlan(prefix, false);
      const runPlain = () => { for (const t of plain.run([x], bound)) t.dispose(); };
      runPlain();
      pred.run(); await session.run(feeds);
      const reps = batch === 1 ? m.reps : Math.max(1, Math.ceil(m.reps / 8));
      const s: number[] = [], o: number[] = [], r: number[] = [], p: number[] = [], rp: number[] = [];
      for (let k = 0; k < 9; k++) {
        const a = cpu(() => pred.run(), reps); const b = await ortCpu(reps); const c = cpu(runPlain, reps);
        s.push(a); o.push(b); p.push(c); r.push(a / b); rp.push(c / b);
      }
      console.log(`${m.name} b${batch}: skiff ${median(s).toFixed(3)} ms (weights packed per run: ${median(p).toFixed(3)}), ORT ${median(o).toFixed(3)} ms, ratio ${median(r).toFixed(2)} (per-run packing: ${median(rp).toFixed(2)})`);
      plain.dispose();
      pred.dispose(); x.dispose();
    }
    await session.release();
  }
} finally { rmSync(dir, { recursive: true, force: true }); }

// Inference latency of the zoo, exported: Skiff's predictor (paddle.jit.save -> .pir +
// .pdiparams -> paddle.inference) next to onnxruntime-node on the same model exported with
// paddle.onnx.export (same weights), batch 1 and 8, both on 2 threads (Skiff's pool set to 2,
// ORT intraOpNumThreads 2, sequential). Samples alternate Skiff/ORT back to back so load from
// other processes hits both; medians and the median of per-pair ratios are reported, and the
// outputs are compared once (max relative difference) so both compute the same thing.
// Writes the "Exported models: predictor vs ONNX Runtime" section of bench/results.md.
//   Run: npx tsx bench/export_latency.ts [model...]   (lenet resnet18 resnet50 mobilenet_v2 bert_tiny gpt_mini)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { chooseModels, randomInput, saveModel } from './export_zoo.js';
import { median, table, writeSection } from './results.js';

const THREADS = 2;
const BATCHES = [1, 8];

/**
 * Alternating blocks of runs, one engine per block, until both have >= minSamples blocks and
 * ~budgetMs passed (max 40). ORT's pool threads spin for a while after a run (its default), and
 * Skiff's pool briefly too: a run started right after the other engine's shares the cores with
 * those spinning threads (measured: MobileNetV2 b1 4.4 ms alone, 8.2 ms right after an ORT run).
 * So each block drops its first run and takes the median of the next BLOCK; the pair ratio
 * compares two adjacent blocks.
 */
async function timeBoth(skiff: () => void, onnx: () => Promise<unknown>, budgetMs: number, minSamples = 5): Promise<{ s: number; o: number; ratio: number; n: number }> {
  const BLOCK = 5;
  skiff(); await onnx(); skiff(); await onnx();  // warm-up (plans, arenas)
  const block = async (k: number): Promise<number> => {
    const t: number[] = [];
    for (let i = 0; i <= BLOCK; i++) {
      const t0 = performance.now();
      if (k === 0) skiff(); else await onnx();
      if (i > 0) t.push(performance.now() - t0);
    }
    return median(t);
  };
  const s: number[] = [], o: number[] = [], r: number[] = [];
  const start = performance.now();
  while (s.length < minSamples || (performance.now() - start < budgetMs && s.length < 40)) {
    const order = s.length % 2;
    let ts = 0, to = 0;
    for (const k of [order, 1 - order]) {
      const dt = await block(k);
      if (k === 0) ts = dt; else to = dt;
    }
    s.push(ts); o.push(to); r.push(ts / to);
  }
  return { s: median(s), o: median(o), ratio: median(r), n: s.length };
}

/** Worst |a - b| / (1e-5 + 1e-4 |b|): <= 1 means within the tests' 1e-4 rel / 1e-5 abs tolerance. */
function tolRatio(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]) / (1e-5 + 1e-4 * Math.abs(b[i])));
  return d;
}

const chosen = chooseModels('export_latency', process.argv.slice(2));

native.numThreads(THREADS);
const dir = mkdtempSync(join(tmpdir(), 'skiff-export-bench-'));
const rows: (string | number)[][] = [];
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(' / ');
try {
  for (const m of chosen) {
    // One export with a symbolic batch serves both batch sizes, in both engines.
    const prefix = saveModel(m, dir, true);
    const exported = { prefix, onnx: new Uint8Array(readFileSync(`${prefix}.onnx`)) };
    for (const batch of BATCHES) {
      const shape = [batch, ...m.tail];
      const x = randomInput(m, batch);
      const pred = paddle.inference.create_predictor(new paddle.inference.Config(exported.prefix));
      pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(x);
      const out0 = pred.get_output_names()[0];
      const session = await ort.InferenceSession.create(exported.onnx, { intraOpNumThreads: THREADS, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
      const xd = m.dtype === 'int64' ? BigInt64Array.from(x.rawData() as BigInt64Array) : Float32Array.from(x.rawData() as Float32Array);
      const feeds = { x: new ort.Tensor(m.dtype, xd, shape) };
      pred.run();
      const ours = pred.get_output_handle(out0).copy_to_cpu();
      const ref = (await session.run(feeds))[session.outputNames[0]].data as Float32Array;
      const diff = tolRatio(ours.rawData() as Float32Array, ref);
      ours.dispose();
      const budget = m.name === 'lenet' ? 1500 : 6000;
      const t = await timeBoth(() => { pred.run(); }, () => session.run(feeds), budget);
      await session.release();
      pred.dispose();
      x.dispose();
      const verdict = t.ratio <= 1.3 ? 'within 1.3x' : t.ratio <= 2 ? 'within 2x' : 'SLOWER than 2x';
      rows.push([m.label, batch, t.s.toFixed(3), t.o.toFixed(3), `${t.ratio.toFixed(2)}x`, verdict, diff.toFixed(2), t.n]);
      console.log(`${m.label} batch ${batch}: skiff ${t.s.toFixed(3)} ms, ORT ${t.o.toFixed(3)} ms, ratio ${t.ratio.toFixed(2)} (${t.n} pairs, |diff| / tolerance ${diff.toFixed(2)})`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

writeSection('Exported models: predictor vs ONNX Runtime (bench/export_latency.ts)', `
Each model is exported twice from the same weights, with a symbolic batch dim: \`paddle.jit.save\` (run by Skiff's
predictor, \`paddle.inference\`) and \`paddle.onnx.export\` (run by onnxruntime-node). Both use
${THREADS} threads (Skiff's pool, ORT \`intraOpNumThreads: ${THREADS}\`, sequential execution, all
graph optimizations). Each sample is a block of 5 runs of one engine after one discarded run (ORT's
pool threads spin after a run and would steal the cores from the next engine's first run), blocks
alternate between the engines; times are medians, ms per run; ratio is the median of per-pair
(adjacent blocks) Skiff/ORT ratios (target: ResNet-50 and BERT-tiny <= 1.3x, none > 2x);
"diff / tol" is the worst |Skiff - ORT| / (1e-5 + 1e-4 |ORT|) over the output (<= 1: within the
tolerance the ONNX tests use). Load average (1 / 5 / 15 min) at the start: ${loadBefore}; at the
end: ${loadavg().map((l) => l.toFixed(1)).join(' / ')} (other processes share the 2 cores: compare
the paired ratios, not the absolute times). The weights are random: ResNet-50 at 224x224 with
batch norm at its default statistics reaches logits of ~2500, where float32 summation order alone
moves the result past the tolerance (Skiff's eager forward and ORT already differ by ~5x it, the
predictor's folded conv+bn by ~13x); test/export checks the tolerance at 32x32.

${table(['model', 'batch', 'Skiff ms', 'ORT ms', 'Skiff / ORT', 'target', 'diff / tol', 'block pairs'], rows)}
`);

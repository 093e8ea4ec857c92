// Symbolic-shape plans: what a new input signature costs when the executor rebinds its one
// lowering (src/executor/rebind.ts) vs lowering afresh (what it did before: one lowering per
// signature). Both produce the same LoweredProgram (test/executor/symbolic.test.ts checks it).
//
//   npx tsx bench/rebind.ts [--quick]
//
// Writes the "## Executor: rebinding a lowering for a new batch size" section of bench/results.md.
import '../src/ops/index.js';
import { checkGraph, fromPir } from '../src/executor/index.js';
import { lower } from '../src/executor/lower.js';
import { rebind } from '../src/executor/rebind.js';
import type { BoundMeta } from '../src/executor/specialize.js';
import { buildModel, MODELS } from '../test/passes/models.js';
import { median, table, writeSection } from './results.js';

const quick = process.argv.includes('--quick');
const REPS = quick ? 5 : 15;

const meta = (shape: number[]): BoundMeta => ({ dtype: 'float32', shape, strides: null });

/** Median µs of fn over REPS runs, each averaged over enough calls to last >= 20 ms. */
function time(fn: () => void): number {
  const samples: number[] = [];
  for (let r = 0; r < REPS; r++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < 20) { fn(); n++; t = performance.now(); }
    samples.push(((t - t0) * 1000) / n);
  }
  return median(samples);
}

const rows: (string | number)[][] = [];
for (const spec of MODELS) {
  const g = fromPir(buildModel(spec));
  const info = checkGraph(g.graph);
  const params = g.params.map((n) => meta(spec.params[n.slice(spec.name.length + 1)]));
  const tpl = lower(info, [meta([2, ...spec.inTail])], params);
  const sizes = [3, 5, 8, 17, 33, 64];
  let k = 0;
  const next = (): BoundMeta[] => [meta([sizes[k++ % sizes.length], ...spec.inTail])];
  const tLower = time(() => lower(info, next(), params));
  const tRebind = time(() => { if (!rebind(tpl, info, next(), params, '')) throw new Error(`${spec.name}: rebind refused`); });
  rows.push([spec.name, g.graph.nodes.length, tLower.toFixed(1), tRebind.toFixed(1), (tLower / tRebind).toFixed(2) + 'x']);
  console.log(rows[rows.length - 1].join('  '));
}

writeSection('Executor: rebinding a lowering for a new batch size', [
  'A program with a symbolic batch dim is lowered once; each new batch size rebinds that lowering',
  '(shapes, encoded attributes, buffer sizes) instead of lowering again. Median µs per new signature',
  `(${REPS} samples; batch sizes 3..64). Creating the native program afterwards is the same for both.`,
  '',
  table(['model', 'nodes', 'lower (µs)', 'rebind (µs)', 'lower / rebind'], rows),
].join('\n'));

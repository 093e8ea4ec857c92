// LSTM forward ([batch 16, seq 32, input 128, hidden 128]) as Skiff runs it: the layer's time
// loop of registry ops (src/nn/layers_rnn.ts), against the matmuls alone (one input projection
// over the sequence + one h @ W_hh^T per step), which a fused per-step LSTM kernel could not go
// below. The gap is what a fused native LSTM/GRU step kernel could win.
//
//   npx tsx bench/rnn.ts [--quick]
//
// Writes the "## LSTM forward (layer time loop)" section of bench/results.md.
import { paddle } from '../src/paddle.js';
import { scope } from '../src/tensor/tensor.js';
import { median, table, writeSection } from './results.js';

const quick = process.argv.includes('--quick');
const SAMPLES = quick ? 5 : 15;
const [B, T, I, H] = [16, 32, 128, 128];

function time(fn: () => void): number {
  const t0 = performance.now();
  scope(fn);
  return performance.now() - t0;
}

const lstm = new paddle.nn.LSTM(I, H);
const x = paddle.randn([B, T, I]);
const cell = lstm.at(0).cell;
const h = paddle.randn([B, H]);
const xt = paddle.transpose(x, [1, 0, 2]);
const run = {
  'LSTM layer, no_grad': () => { paddle.no_grad(() => lstm.call(x)); },
  'LSTM layer, recording autograd': () => { lstm.call(x); },
  'matmuls only (1 projection + 32 h @ W_hh^T)': () => {
    paddle.matmul(xt, cell.weight_ih, false, true);
    for (let t = 0; t < T; t++) paddle.matmul(h, cell.weight_hh, false, true);
  },
};
for (const f of Object.values(run)) for (let i = 0; i < 3; i++) time(f);   // warm-up
const rows: (string | number)[][] = [];
const med: Record<string, number> = {};
for (const [name, f] of Object.entries(run)) {
  const ms = median(Array.from({ length: SAMPLES }, () => time(f)));
  med[name] = ms;
  rows.push([name, ms, ms / T]);
}
const body = `${table(['variant', 'ms / forward (median)', 'ms / step'], rows)}

Shape [batch ${B}, seq ${T}, input ${I}, hidden ${H}], ${paddle.get_num_threads()} threads. The layer issues about
12 registry ops per step (split, 3 sigmoid, 2 tanh, 3 multiply, 2 add, the h matmul) plus one stack
at the end; the matmuls are ${(100 * med['matmuls only (1 projection + 32 h @ W_hh^T)'] / med['LSTM layer, no_grad']).toFixed(0)}% of the no_grad time.`;
writeSection('LSTM forward (layer time loop)', body);
console.log(body);

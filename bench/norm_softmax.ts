// Memory-bound NN kernels: eager F.layer_norm, F.softmax (last axis and a middle axis) and
// F.rms_norm throughput in GB/s (bytes read + written: the input once and the output once, the
// per-row statistics ignored), over a few transformer- and CNN-sized shapes, float32, whole pool.
// Writes the "Normalization and softmax" section.   Run: npx tsx bench/norm_softmax.ts
import os from 'node:os';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';
import { table, writeSection, timeCalls } from './results.js';

const shapes = [[4096, 1024], [64, 128, 768], [32, 4096], [256, 64, 64]];


const F = paddle.nn.functional;
const rows: (string | number)[][] = [];
for (const shape of shapes) {
  const x = paddle.rand(shape, 'float32') as Tensor;
  const last = shape[shape.length - 1];
  const w = paddle.rand([last], 'float32') as Tensor, b = paddle.rand([last], 'float32') as Tensor;
  const bytes = 2 * 4 * shape.reduce((p, d) => p * d, 1);
  const ops: [string, () => void][] = [
    ['layer_norm (last dim, affine)', () => { F.layer_norm(x, [last], w, b); }],
    ['rms_norm (last dim, weight)', () => { F.rms_norm(x, [last], w); }],
    ['softmax (axis -1)', () => { F.softmax(x, -1); }],
    ['softmax (axis 0)', () => { F.softmax(x, 0); }],
  ];
  for (const [name, fn] of ops) {
    const ms = timeCalls(() => scope(fn)).med;
    rows.push([name, JSON.stringify(shape), ms.toPrecision(3), bytes / 1e9 / (ms / 1e3)]);
    console.log(rows[rows.length - 1].join('  '));
  }
  x.dispose(); w.dispose(); b.dispose();
}

writeSection('Normalization and softmax', `Eager float32 calls on ${native.numThreads()} threads, ms per call (median) and GB/s counting the input read once
and the output written once. Load average when measured: ${os.loadavg().map((v) => v.toFixed(1)).join(' / ')}.

${table(['op', 'shape', 'ms', 'GB/s'], rows)}`);

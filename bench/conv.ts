// Convolution benchmark: eager F.conv2d on LeNet and ResNet-sized problems, ms per call and
// GF/s (2 * multiply-adds), with the whole pool and with one thread. Writes the
// "Convolution" section of bench/results.md.   Run: npx tsx bench/conv.ts
import os from 'node:os';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';
import { table, writeSection, timeCalls } from './results.js';

interface Case { name: string; x: number[]; w: number[]; bias: boolean; stride?: number; padding?: number; groups?: number; dtype?: string; format?: string }

const cases: Case[] = [
  { name: 'LeNet conv1', x: [64, 1, 28, 28], w: [6, 1, 5, 5], bias: true },
  { name: 'LeNet conv2', x: [64, 6, 12, 12], w: [16, 6, 5, 5], bias: true },
  { name: 'ResNet 3x3', x: [8, 64, 56, 56], w: [64, 64, 3, 3], bias: false, padding: 1 },
  { name: 'ResNet 3x3 float64', x: [8, 64, 56, 56], w: [64, 64, 3, 3], bias: false, padding: 1, dtype: 'float64' },
  { name: 'ResNet 3x3 stride 2', x: [8, 64, 56, 56], w: [128, 64, 3, 3], bias: false, stride: 2, padding: 1 },
  { name: 'ResNet 1x1', x: [8, 256, 14, 14], w: [64, 256, 1, 1], bias: false },
  { name: 'ResNet 3x3 NHWC', x: [8, 56, 56, 64], w: [64, 64, 3, 3], bias: false, padding: 1, format: 'NHWC' },
  { name: 'MobileNet depthwise 3x3', x: [8, 64, 56, 56], w: [64, 1, 3, 3], bias: false, padding: 1, groups: 64 },
];

function flops(c: Case, out: readonly number[]): number {
  const [, cg, kh, kw] = c.w;
  let n = 1;
  for (const d of out) n *= d;
  return 2 * n * cg * kh * kw;
}


const F = paddle.nn.functional;
const pool = native.numThreads();
const rows: (string | number)[][] = [];
for (const c of cases) {
  const dtype = c.dtype ?? 'float32';
  const x = paddle.rand(c.x, dtype) as Tensor;
  const w = paddle.rand(c.w, dtype) as Tensor;
  const b = c.bias ? (paddle.rand([c.w[0]], dtype) as Tensor) : null;
  const run = () => scope(() => { F.conv2d(x, w, b, c.stride ?? 1, c.padding ?? 0, 1, c.groups ?? 1, c.format ?? 'NCHW'); });
  const out = scope(() => [...(F.conv2d(x, w, b, c.stride ?? 1, c.padding ?? 0, 1, c.groups ?? 1, c.format ?? 'NCHW') as Tensor).shape]);
  const gf = flops(c, out) / 1e9;
  const msAll = timeCalls(run, { minMs: 400 });
  native.numThreads(1);
  const ms1 = timeCalls(run, { minMs: 400 });
  native.numThreads(pool);
  const f = (t: { med: number; best: number }) => [`${t.med.toPrecision(3)} / ${t.best.toPrecision(3)}`, gf / (t.med / 1e3), gf / (t.best / 1e3)];
  rows.push([c.name, `${JSON.stringify(c.x)} x ${JSON.stringify(c.w)}`, ...f(msAll), ...f(ms1)]);
  console.log(rows[rows.length - 1].join('  '));
  x.dispose(); w.dispose(); b?.dispose();
}

const gemmInfo = typeof native.gemmInfo === 'function' ? ` GEMM: ${(native.gemmInfo as () => string)()}.` : '';
writeSection('Convolution', `Eager \`F.conv2d\` (im2col + packed GEMM, batch split over threads), float32 unless noted,
ms per call as median / best; GF/s (2 flops per multiply-add) at the median and at the best. ${pool} threads vs 1.${gemmInfo}
Load average when measured: ${os.loadavg().map((v) => v.toFixed(1)).join(' / ')} (other work on the machine skews the multi-thread column).

${table(['case', 'x x weight', `ms (${pool} thr)`, `GF/s (${pool} thr)`, `best GF/s (${pool} thr)`, 'ms (1 thr)', 'GF/s (1 thr)', 'best GF/s (1 thr)'], rows)}`);

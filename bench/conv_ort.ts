// Convolution against ONNX Runtime: eager F.conv2d on ResNet-50's 3x3 layers (batch 8) and on
// MobileNet-style depthwise 3x3 layers, each next to onnxruntime-node's Conv on the same data in
// the same run, both on the whole thread pool. ORT gets its weights as an initializer (pre-packed
// at session creation) and a pre-allocated output; Skiff allocates its output every call, as an
// eager call does. Outputs are compared once (max relative difference) so both compute the same
// thing. Writes the "Convolution vs ONNX Runtime" section.   Run: npx tsx bench/conv_ort.ts
import os from 'node:os';
import * as ort from 'onnxruntime-node';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';
import { initializer, PbWriter, valueInfo } from './onnx_matmul_model.js';
import { table, writeSection, timeCallsAsync } from './results.js';

interface Case { name: string; x: number[]; w: number[]; stride: number; pad: number; groups: number }

const cases: Case[] = [
  { name: 'ResNet-50 conv2_x 3x3', x: [8, 64, 56, 56], w: [64, 64, 3, 3], stride: 1, pad: 1, groups: 1 },
  { name: 'ResNet-50 conv3_1 3x3 /2', x: [8, 128, 56, 56], w: [128, 128, 3, 3], stride: 2, pad: 1, groups: 1 },
  { name: 'ResNet-50 conv3_x 3x3', x: [8, 128, 28, 28], w: [128, 128, 3, 3], stride: 1, pad: 1, groups: 1 },
  { name: 'ResNet-50 conv4_1 3x3 /2', x: [8, 256, 28, 28], w: [256, 256, 3, 3], stride: 2, pad: 1, groups: 1 },
  { name: 'ResNet-50 conv4_x 3x3', x: [8, 256, 14, 14], w: [256, 256, 3, 3], stride: 1, pad: 1, groups: 1 },
  { name: 'ResNet-50 conv5_x 3x3', x: [8, 512, 7, 7], w: [512, 512, 3, 3], stride: 1, pad: 1, groups: 1 },
  { name: 'depthwise 3x3', x: [8, 64, 56, 56], w: [64, 1, 3, 3], stride: 1, pad: 1, groups: 64 },
  { name: 'depthwise 3x3 /2', x: [8, 96, 112, 112], w: [96, 1, 3, 3], stride: 2, pad: 1, groups: 96 },
  { name: 'depthwise 3x3 (14x14)', x: [8, 512, 14, 14], w: [512, 1, 3, 3], stride: 1, pad: 1, groups: 512 },
];

/** ONNX bytes (IR 8, opset 17): Y = Conv(X, W) with W baked in as an initializer. */
function convModel(c: Case, out: readonly number[], w: Float32Array): Uint8Array {
  const ints = (name: string, v: number[]) => {
    const a = new PbWriter().string(1, name);
    for (const e of v) a.int(8, e);  // AttributeProto.ints
    return a.int(20, 7);             // type = INTS
  };
  const int = (name: string, v: number) => new PbWriter().string(1, name).int(3, v).int(20, 2);  // i, type = INT
  const node = new PbWriter().string(1, 'X').string(1, 'W').string(2, 'Y').string(3, 'conv').string(4, 'Conv')
    .message(5, ints('kernel_shape', [c.w[2], c.w[3]])).message(5, ints('pads', [c.pad, c.pad, c.pad, c.pad]))
    .message(5, ints('strides', [c.stride, c.stride])).message(5, ints('dilations', [1, 1])).message(5, int('group', c.groups));
  const graph = new PbWriter().message(1, node).string(2, 'conv_bench').message(5, initializer('W', c.w, w))
    .message(11, valueInfo('X', c.x)).message(12, valueInfo('Y', out));
  const opset = new PbWriter().string(1, '').int(2, 17);
  return new PbWriter().int(1, 8).string(2, 'skiff-bench').message(7, graph).message(8, opset).finish();
}


const F = paddle.nn.functional;
const threads = native.numThreads();
const rows: (string | number)[][] = [];
for (const c of cases) {
  const x = paddle.rand(c.x, 'float32') as Tensor;
  const w = paddle.rand(c.w, 'float32') as Tensor;
  const conv = () => F.conv2d(x, w, null, c.stride, c.pad, 1, c.groups) as Tensor;
  const ours = scope(() => { const y = conv(); return { shape: [...y.shape] as number[], data: Float32Array.from(y.rawData() as Float32Array) }; });
  const xd = Float32Array.from(x.rawData() as Float32Array), wd = Float32Array.from(w.rawData() as Float32Array);
  const session = await ort.InferenceSession.create(convModel(c, ours.shape, wd), {
    intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
  });
  const feeds = { X: new ort.Tensor('float32', xd, c.x) };
  const fetches = { Y: new ort.Tensor('float32', new Float32Array(ours.data.length), ours.shape) };
  const ref = (await session.run(feeds)).Y.data as Float32Array;
  let diff = 0;
  for (let i = 0; i < ref.length; i++) diff = Math.max(diff, Math.abs(ref[i] - ours.data[i]) / (1 + Math.abs(ref[i])));
  const gf = (2 * ours.data.length * c.w[1] * c.w[2] * c.w[3]) / 1e9;
  const s = await timeCallsAsync(() => scope(() => { conv(); }), { minMs: 600, maxReps: 100 });
  const o = await timeCallsAsync(() => session.run(feeds, fetches), { minMs: 600, maxReps: 100 });
  await session.release();
  // The floor an eager call producing this output pays anyway: a fresh output of the same size
  // (first-touch page faults) written by a trivial elementwise op.
  const y = paddle.zeros(ours.shape, 'float32') as Tensor;
  const floor = await timeCallsAsync(() => scope(() => { paddle.scale(y, 2); }), { minMs: 300, maxReps: 100 });
  y.dispose();
  rows.push([c.name, `${JSON.stringify(c.x)} x ${JSON.stringify(c.w)}${c.stride > 1 ? ` s${c.stride}` : ''}${c.groups > 1 ? ` g${c.groups}` : ''}`,
    s.med.toPrecision(3), gf / (s.med / 1e3), o.med.toPrecision(3), gf / (o.med / 1e3), (o.med / s.med).toFixed(2), floor.med.toPrecision(3), diff.toExponential(1)]);
  console.log(rows[rows.length - 1].join('  '));
  x.dispose(); w.dispose();
}

writeSection('Convolution vs ONNX Runtime', `Eager \`F.conv2d\` against onnxruntime-node's \`Conv\` (weights as an initializer, pre-allocated
output) on the same inputs in the same run, float32, ${threads} threads each. ms per call (median); GF/s = 2 flops per
multiply-add at the median; ratio = Skiff throughput / ORT throughput (issue 6 target: >= 0.7 on the ResNet layers).
Depthwise rows use Skiff's direct depthwise kernel. "output floor" is an eager \`scale\` writing a fresh tensor of the
output's size: outputs of 1 MB and more are fresh mmap pages, and their first-touch faults (slow on this VM kind) are
part of every eager Skiff call but not of ORT's (pre-allocated output); the depthwise rows sit close to that floor.
Load average when measured: ${os.loadavg().map((v) => v.toFixed(1)).join(' / ')}.

${table(['case', 'x x weight', 'Skiff ms', 'Skiff GF/s', 'ORT ms', 'ORT GF/s', 'ratio', 'output floor ms', 'max rel diff'], rows)}`);

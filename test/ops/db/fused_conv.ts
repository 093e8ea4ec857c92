// Record of fused_conv2d_add_act (act(conv2d(x, w) + bias + residual_data)), the op the conv +
// activation fusion pass makes: the regular (im2col + GEMM) and depthwise kernel paths, each
// activation, NHWC, strided inputs, with and without bias, with and without a residual.
import { addRecords } from '../op_db.js';
import { type NDArray, rand } from '../ref.js';
import { refConv2d } from './nn_conv.js';

const ACT: Record<string, (v: number) => number> = {
  identity: (v) => v,
  relu: (v) => Math.max(v, 0),
  relu6: (v) => Math.min(Math.max(v, 0), 6),
  hardswish: (v) => (v * Math.min(Math.max(v + 3, 0), 6)) / 6,
};

// Scaled so relu6's upper clip and hardswish's both kinks are reached.
const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -3, 3);

addRecords({
  op: 'fused_conv2d_add_act',
  samples: [
    { inputs: [r([2, 1, 12, 12], 1), r([6, 1, 5, 5], 2), r([6], 3)], attrs: { activation: 'relu' }, strided: true, note: 'LeNet-like 5x5' },
    { inputs: [r([2, 3, 8, 8], 4), r([4, 3, 3, 3], 5), r([4], 6)], attrs: { stride: 2, padding: 1, activation: 'relu6' }, note: 'stride 2' },
    { inputs: [r([1, 4, 6, 6], 7), r([4, 1, 3, 3], 8), r([4], 9)], attrs: { groups: 4, padding: 1, activation: 'relu6' }, note: 'depthwise, flat sweep' },
    { inputs: [r([1, 4, 7, 7], 10), r([4, 1, 3, 3], 11), r([4], 12)], attrs: { groups: 4, padding: 1, stride: 2, activation: 'hardswish' }, note: 'depthwise stride 2' },
    { inputs: [r([1, 2, 6, 6], 13), r([4, 1, 5, 5], 14), null], attrs: { groups: 2, padding: 2, activation: 'relu' }, note: 'channel multiplier, no bias' },
    { inputs: [r([2, 4, 5, 5], 15), r([6, 4, 1, 1], 16), r([6], 17)], attrs: { activation: 'hardswish' }, note: '1x1' },
    { inputs: [r([2, 5, 5, 3], 18), r([4, 3, 3, 3], 19), r([4], 20)], attrs: { padding: 1, data_format: 'NHWC', activation: 'relu6' }, note: 'NHWC' },
    { inputs: [r([1, 3, 6, 6], 21), r([4, 3, 3, 3], 22), null], attrs: { activation: 'relu' }, note: 'no bias' },
    { inputs: [r([2, 3, 6, 6], 23), r([4, 3, 3, 3], 24), r([4], 25)], note: 'identity' },
    { inputs: [r([0, 3, 6, 6], 26), r([4, 3, 3, 3], 27), r([4], 28)], attrs: { activation: 'relu' }, note: 'empty batch' },
    { inputs: [r([2, 4, 5, 5], 29), r([4, 4, 1, 1], 30), r([4], 31), r([2, 4, 5, 5], 32)], attrs: { activation: 'relu' }, strided: true, note: '1x1 + residual' },
    { inputs: [r([1, 3, 6, 6], 33), r([4, 3, 3, 3], 34), null, r([1, 4, 6, 6], 35)], attrs: { padding: 1, activation: 'relu6' }, note: '3x3 + residual, no bias' },
    { inputs: [r([1, 4, 6, 6], 36), r([4, 1, 3, 3], 37), r([4], 38), r([1, 4, 3, 3], 39)], attrs: { groups: 4, padding: 1, stride: 2, activation: 'hardswish' }, note: 'depthwise stride 2 + residual' },
    { inputs: [r([1, 5, 5, 3], 40), r([4, 3, 3, 3], 41), r([4], 42), r([1, 5, 5, 4], 43)], attrs: { padding: 1, data_format: 'NHWC' }, note: 'NHWC + residual, identity' },
  ],
  ref: (ins, a) => {
    const y = refConv2d((ins as (NDArray | null)[]).slice(0, 3), a);
    const act = ACT[String(a.activation ?? 'identity')];
    const res = (ins as (NDArray | null)[])[3];
    return { ...y, data: y.data.map((v, i) => act(res ? v + res.data[i] : v)) };
  },
  dtypes: ['float64'],
  atol: 1e-4, rtol: 1e-4,
  bad: [
    { inputs: [r([1, 3, 5, 5], 1), r([4, 2, 3, 3], 2), null], error: /fused_conv2d_add_act: conv2d: input channels 3 do not match/ },
    { inputs: [r([1, 3, 5, 5], 1), r([4, 3, 3, 3], 2), r([4], 3)], attrs: { activation: 'gelu' }, error: /fused_conv2d_add_act: activation must be one of/ },
    { inputs: [r([1, 3, 5, 5], 1), r([4, 3, 3, 3], 2), r([3], 3)], error: /fused_conv2d_add_act: conv2d: bias must have shape \[4\]/ },
    { inputs: [r([1, 3, 5, 5], 1), r([4, 3, 3, 3], 2), r([4], 3), r([1, 4, 5, 5], 4)], error: /fused_conv2d_add_act: residual_data must match the output float\d+\[1, 4, 3, 3\]/ },
  ],
});

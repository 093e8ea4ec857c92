// conv2d records: a direct 7-loop reference over Paddle's padding forms, NCHW and NHWC.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand } from '../ref.js';

type Attrs = Record<string, unknown>;
const two = (v: unknown, d: number): [number, number] => (v === undefined ? [d, d] : typeof v === 'number' ? [v, v] : [(v as number[])[0], (v as number[])[1]]);

/** [top, bottom, left, right] for the reference, from every padding form F.conv2d accepts. */
export function refPads(padding: unknown, inH: number, inW: number, k: [number, number], s: [number, number], channelLast: boolean): { pads: number[]; same: boolean } {
  if (typeof padding === 'string') {
    if (padding.toUpperCase() === 'VALID') return { pads: [0, 0, 0, 0], same: false };
    const one = (n: number, kk: number, ss: number) => {
      const out = Math.ceil(n / ss);
      const sum = Math.max((out - 1) * ss + kk - n, 0);
      return [Math.floor(sum / 2), sum - Math.floor(sum / 2)];
    };
    return { pads: [...one(inH, k[0], s[0]), ...one(inW, k[1], s[1])], same: true };
  }
  if (padding === undefined) return { pads: [0, 0, 0, 0], same: false };
  if (typeof padding === 'number') return { pads: [padding, padding, padding, padding], same: false };
  const p = padding as unknown[];
  if (Array.isArray(p[0])) {
    const q = p as number[][];
    const [a, b] = channelLast ? [q[1], q[2]] : [q[2], q[3]];
    return { pads: [a[0], a[1], b[0], b[1]], same: false };
  }
  const n = p as number[];
  return { pads: n.length === 2 ? [n[0], n[0], n[1], n[1]] : [...n], same: false };
}

export function refConv2d(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const [x, w, b] = inputs as [NDArray, NDArray, NDArray | null];
  const cl = a.data_format === 'NHWC';
  const [N, C, H, W] = cl ? [x.shape[0], x.shape[3], x.shape[1], x.shape[2]] : x.shape;
  const [Co, Cg, KH, KW] = w.shape;
  const g = (a.groups as number) ?? 1;
  const s = two(a.stride, 1);
  let d = two(a.dilation, 1);
  const { pads, same } = refPads(a.padding, H, W, [KH, KW], s, cl);
  if (same) d = [1, 1];
  const OH = Math.floor((H + pads[0] + pads[1] - (d[0] * (KH - 1) + 1)) / s[0]) + 1;
  const OW = Math.floor((W + pads[2] + pads[3] - (d[1] * (KW - 1) + 1)) / s[1]) + 1;
  const xAt = (n: number, c: number, h: number, ww: number) => x.data[cl ? ((n * H + h) * W + ww) * C + c : ((n * C + c) * H + h) * W + ww];
  const out = new Array<number>(N * Co * OH * OW);
  const og = Co / g;
  for (let n = 0; n < N; n++)
    for (let co = 0; co < Co; co++)
      for (let oh = 0; oh < OH; oh++)
        for (let ow = 0; ow < OW; ow++) {
          let acc = b ? b.data[co] : 0;
          const grp = Math.floor(co / og);
          for (let ci = 0; ci < Cg; ci++)
            for (let i = 0; i < KH; i++)
              for (let j = 0; j < KW; j++) {
                const ih = oh * s[0] - pads[0] + i * d[0], iw = ow * s[1] - pads[2] + j * d[1];
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                acc += xAt(n, grp * Cg + ci, ih, iw) * w.data[((co * Cg + ci) * KH + i) * KW + j];
              }
          const idx = cl ? ((n * OH + oh) * OW + ow) * Co + co : ((n * Co + co) * OH + oh) * OW + ow;
          out[idx] = castValue(acc, x.dtype);
        }
  return { shape: cl ? [N, OH, OW, Co] : [N, Co, OH, OW], data: out, dtype: x.dtype };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -1, 1);

addRecords({
  op: 'conv2d',
  samples: [
    { inputs: [r([2, 1, 28, 28], 1), r([6, 1, 5, 5], 2), r([6], 3)], strided: true, note: 'LeNet conv1' },
    { inputs: [r([2, 6, 12, 12], 4), r([16, 6, 5, 5], 5), r([16], 6)], note: 'LeNet conv2' },
    { inputs: [r([2, 4, 7, 7], 7), r([6, 2, 3, 3], 8), null], attrs: { groups: 2, padding: 1 }, note: 'groups' },
    { inputs: [r([1, 4, 6, 6], 9), r([4, 1, 3, 3], 10), r([4], 11)], attrs: { groups: 4, padding: [1, 1] }, note: 'depthwise' },
    { inputs: [r([1, 3, 9, 9], 12), r([4, 3, 3, 3], 13), null], attrs: { dilation: 2, padding: [1, 2] }, note: 'dilation' },
    { inputs: [r([2, 3, 8, 8], 14), r([4, 3, 3, 3], 15), r([4], 16)], attrs: { stride: 2, padding: 1 }, strided: true, note: 'stride 2 padding 1' },
    { inputs: [r([1, 2, 7, 6], 17), r([3, 2, 3, 2], 18), null], attrs: { stride: [2, 1], padding: [1, 0, 2, 1] }, note: 'asymmetric padding' },
    { inputs: [r([1, 2, 7, 6], 19), r([3, 2, 3, 3], 20), null], attrs: { stride: 2, padding: 'SAME', dilation: 2 }, note: 'SAME (dilation ignored)' },
    { inputs: [r([1, 2, 7, 6], 21), r([3, 2, 3, 3], 22), null], attrs: { stride: 2, padding: 'valid' }, note: 'VALID' },
    { inputs: [r([1, 2, 5, 5], 23), r([3, 2, 3, 3], 24), null], attrs: { padding: [[0, 0], [0, 0], [1, 1], [2, 0]] }, note: 'nested padding' },
    { inputs: [r([2, 6, 6, 3], 25), r([4, 3, 3, 3], 26), r([4], 27)], attrs: { stride: 2, padding: 1, data_format: 'NHWC' }, strided: true, note: 'NHWC' },
    { inputs: [r([2, 5, 5, 4], 28), r([6, 2, 1, 1], 29), r([6], 30)], attrs: { groups: 2, data_format: 'NHWC' }, strided: true, note: 'NHWC 1x1 groups' },
    { inputs: [r([2, 8, 5, 5], 31), r([4, 8, 1, 1], 32), r([4], 33)], strided: true, note: '1x1' },
    { inputs: [r([2, 5, 6, 4], 36), r([6, 2, 3, 3], 37), r([6], 38)], attrs: { groups: 2, padding: 1, dilation: [1, 2], data_format: 'NHWC' }, strided: true, note: 'NHWC groups dilation' },
    { inputs: [r([2, 6, 6, 3], 39), r([6, 1, 3, 3], 40), r([6], 41)], attrs: { groups: 3, stride: 2, padding: 1, data_format: 'NHWC' }, strided: true, note: 'NHWC depthwise x2' },
    { inputs: [r([2, 3, 7, 7], 42), r([6, 1, 3, 3], 43), null], attrs: { groups: 3, stride: [2, 1], dilation: 2, padding: 2 }, strided: true, note: 'depthwise multiplier 2, dilation' },
    { inputs: [r([2, 4, 9, 8], 44), r([4, 1, 5, 5], 45), r([4], 46)], attrs: { groups: 4, padding: 'SAME', stride: 2 }, strided: true, note: 'depthwise 5x5 SAME stride 2' },
    { inputs: [r([1, 3, 6, 9], 47), r([3, 1, 2, 3], 48), null], attrs: { groups: 3, stride: [1, 2], padding: [1, 0, 2, 1], dilation: [2, 1] }, strided: true, note: 'depthwise 2x3 asymmetric padding' },
    { inputs: [r([1, 2, 5, 5], 49), r([2, 1, 3, 3], 50), r([2], 51)], attrs: { groups: 2, padding: 3, dilation: 3 }, note: 'depthwise padding beyond the input' },
    { inputs: [r([0, 3, 5, 5], 34), r([4, 3, 3, 3], 35), null], note: 'empty batch' },
  ],
  ref: refConv2d,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5,
  rtol: 1e-4,
  bad: [
    { inputs: [r([1, 5, 5], 1), r([1, 1, 3, 3], 2), null], error: /conv2d: Input x should be 4D tensor/ },
    { inputs: [r([1, 3, 5, 5], 1), r([4, 2, 3, 3], 2), null], error: /conv2d: input channels 3 do not match weight \[4, 2, 3, 3\] with groups 1/ },
    { inputs: [r([1, 4, 5, 5], 1), r([3, 2, 3, 3], 2), null], attrs: { groups: 2 }, error: /conv2d: the number of filters must be divisible by groups/ },
    { inputs: [r([1, 3, 5, 5], 1), r([3, 1, 3, 3], 2), null], attrs: { groups: 2 }, error: /conv2d: the channel of input must be divisible by groups/ },
    { inputs: [r([1, 1, 3, 3], 1), r([1, 1, 5, 5], 2), null], error: /conv2d: output height would be -1: input size 3 with padding 0 is smaller than the kernel size 5/ },
    { inputs: [r([1, 1, 4, 4], 1), r([1, 1, 3, 3], 2), null], attrs: { dilation: 2 }, error: /conv2d: output height .* dilated kernel size 5/ },
    { inputs: [r([1, 1, 5, 5], 1), r([1, 1, 3, 3], 2), null], attrs: { padding: -1 }, error: /conv2d: padding must be non-negative/ },
    { inputs: [r([1, 1, 5, 5], 1), r([1, 1, 3, 3], 2), null], attrs: { stride: 0 }, error: /conv2d: stride must be positive/ },
    { inputs: [r([1, 1, 5, 5], 1), r([1, 1, 3, 3], 2), null], attrs: { padding: 'FULL' }, error: /conv2d: Unknown padding: 'FULL'/ },
    { inputs: [r([1, 1, 5, 5], 1), r([1, 1, 3, 3], 2), null], attrs: { groups: 0 }, error: /conv2d: The groups of conv2d should be greater than 0/ },
    { inputs: [r([1, 1, 5, 5], 1), rand([1, 1, 3, 3], 'float64', 2), null], error: /conv2d: x and weight have different dtypes float32 and float64/ },
    { inputs: [rand([1, 1, 5, 5], 'int32', 1), rand([1, 1, 3, 3], 'int32', 2), null], error: /conv2d: expected a floating-point input, got int32/ },
    { inputs: [r([1, 2, 5, 5], 1), r([3, 2, 3, 3], 2), nd([2], [1, 2])], error: /conv2d: bias must have shape \[3\]/ },
    { inputs: [r([1, 2, 5, 5], 1), r([3, 2, 3, 3], 2), null], attrs: { data_format: 'NCWH' }, error: /conv2d: data_format must be 'NCHW' or 'NHWC'/ },
  ],
});

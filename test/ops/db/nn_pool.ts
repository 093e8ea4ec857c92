// max_pool2d / avg_pool2d records: a direct reference with Paddle's window clipping rules.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, rand } from '../ref.js';
import { refPads } from './nn_conv.js';

type Attrs = Record<string, unknown>;
const two = (v: unknown): [number, number] => (typeof v === 'number' ? [v, v] : [(v as number[])[0], (v as number[])[1]]);

function refPool(kind: 'max' | 'avg') {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray | NDArray[] => {
    const x = inputs[0] as NDArray;
    const cl = a.data_format === 'NHWC';
    const [N, C, H, W] = cl ? [x.shape[0], x.shape[3], x.shape[1], x.shape[2]] : x.shape;
    const k = two(a.kernel_size);
    const s = a.stride === undefined || a.stride === null ? k : two(a.stride);
    const { pads } = refPads(a.padding, H, W, k, s, cl);
    const ceil = Boolean(a.ceil_mode);
    const size = (n: number, kk: number, ss: number, p0: number, p1: number) => Math.floor((n - kk + p0 + p1 + (ceil ? ss - 1 : 0)) / ss) + 1;
    const OH = size(H, k[0], s[0], pads[0], pads[1]), OW = size(W, k[1], s[1], pads[2], pads[3]);
    const exclusive = a.exclusive === undefined ? true : Boolean(a.exclusive);
    const div = a.divisor_override as number | undefined;
    const out = new Array<number>(N * C * OH * OW), mask = new Array<number>(N * C * OH * OW);
    for (let n = 0; n < N; n++)
      for (let c = 0; c < C; c++)
        for (let oh = 0; oh < OH; oh++)
          for (let ow = 0; ow < OW; ow++) {
            const h0 = oh * s[0] - pads[0], w0 = ow * s[1] - pads[2];
            const hs = Math.max(h0, 0), he = Math.min(h0 + k[0], H), ws = Math.max(w0, 0), we = Math.min(w0 + k[1], W);
            let best = -Infinity, bi = -1, sum = 0;
            for (let h = hs; h < he; h++)
              for (let w = ws; w < we; w++) {
                const v = x.data[cl ? ((n * H + h) * W + w) * C + c : ((n * C + c) * H + h) * W + w];
                if (bi < 0 || v > best) { best = v; bi = h * W + w; }
                sum += v;
              }
            let v = kind === 'max' ? best : sum / (exclusive ? (he - hs) * (we - ws) : k[0] * k[1]);
            if (kind === 'avg' && div !== undefined && div !== null) v = (v * k[0] * k[1]) / div;
            const idx = cl ? ((n * OH + oh) * OW + ow) * C + c : ((n * C + c) * OH + oh) * OW + ow;
            out[idx] = castValue(v, x.dtype);
            mask[idx] = bi;
          }
    const shape = cl ? [N, OH, OW, C] : [N, C, OH, OW];
    const res: NDArray = { shape, data: out, dtype: x.dtype };
    return a.return_mask ? [res, { shape, data: mask, dtype: 'int32' }] : res;
  };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -2, 2);
const common = [
  { inputs: [r([2, 3, 8, 8], 1)], attrs: { kernel_size: 2 }, strided: true, note: 'stride defaults to kernel_size' },
  { inputs: [r([1, 2, 7, 7], 2)], attrs: { kernel_size: 3, stride: 2, padding: 1 }, strided: true, note: 'padding 1' },
  { inputs: [r([1, 2, 7, 7], 3)], attrs: { kernel_size: 2, stride: 2, ceil_mode: true }, note: 'ceil_mode' },
  { inputs: [r([1, 2, 8, 7], 4)], attrs: { kernel_size: 3, stride: 2, padding: [1, 0, 0, 1], ceil_mode: true }, note: 'asymmetric padding, ceil' },
  { inputs: [r([2, 5, 6, 3], 5)], attrs: { kernel_size: [2, 3], stride: [1, 2], data_format: 'NHWC' }, strided: true, note: 'NHWC' },
  { inputs: [r([1, 1, 7, 7], 6)], attrs: { kernel_size: 3, stride: 2, padding: 'SAME' }, note: 'SAME' },
  { inputs: [r([1, 1, 7, 7], 7)], attrs: { kernel_size: 3, stride: 2, padding: 'VALID' }, note: 'VALID' },
  { inputs: [r([0, 2, 4, 4], 8)], attrs: { kernel_size: 2 }, note: 'empty batch' },
];
const badCommon = (op: string) => [
  { inputs: [r([1, 1, 2, 2], 1)], attrs: { kernel_size: 3 }, error: new RegExp(`${op}: output height would be 0: input size 2 with padding 0 is smaller than the kernel size 3`) },
  { inputs: [r([1, 2, 2], 1)], attrs: { kernel_size: 2 }, error: new RegExp(`${op}: input should be a 4D tensor`) },
  { inputs: [r([1, 1, 4, 4], 1)], attrs: { kernel_size: 2, padding: 'VALID', ceil_mode: true }, error: new RegExp(`${op}: When Attr\\(padding\\) is "VALID", Attr\\(ceil_mode\\) must be False`) },
  { inputs: [r([1, 1, 4, 4], 1)], attrs: { kernel_size: 2, stride: 0 }, error: new RegExp(`${op}: stride must be positive`) },
  { inputs: [r([1, 1, 4, 4], 1)], attrs: { kernel_size: [2, 2, 2] }, error: new RegExp(`${op}: kernel_size must be an int or a list of 2 ints`) },
  { inputs: [rand([1, 1, 4, 4], 'int64', 1)], attrs: { kernel_size: 2 }, error: new RegExp(`${op}: expected a floating-point input, got int64`) },
];

addRecords({
  op: 'max_pool2d',
  samples: [
    ...common,
    { inputs: [r([2, 2, 5, 5], 9)], attrs: { kernel_size: 3, stride: 2, padding: 1, return_mask: true }, strided: true, note: 'return_mask' },
  ],
  ref: refPool('max'),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    ...badCommon('max_pool2d'),
    { inputs: [r([1, 4, 4, 1], 1)], attrs: { kernel_size: 2, return_mask: true, data_format: 'NHWC' }, error: /max_pool2d: When setting return_mask to true, data_format must be set to NCHW/ },
  ],
}, {
  op: 'avg_pool2d',
  samples: [
    ...common,
    { inputs: [r([1, 2, 7, 7], 10)], attrs: { kernel_size: 3, stride: 2, padding: 1, exclusive: false }, note: 'exclusive=False' },
    { inputs: [r([1, 2, 7, 7], 11)], attrs: { kernel_size: 3, stride: 2, ceil_mode: true, exclusive: false }, note: 'ceil + non-exclusive divides by kh*kw' },
    { inputs: [r([1, 2, 6, 6], 12)], attrs: { kernel_size: 2, padding: 1, divisor_override: 3 }, note: 'divisor_override' },
  ],
  ref: refPool('avg'),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    ...badCommon('avg_pool2d'),
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { kernel_size: 2, divisor_override: 0 }, error: /avg_pool2d: divisor_override must be a nonzero number/ },
  ],
});

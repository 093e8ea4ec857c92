// unfold (im2col) and fold (col2im) records: direct index-mapping references.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, rand } from '../ref.js';

type Attrs = Record<string, unknown>;
const two = (v: unknown): [number, number] => (typeof v === 'number' ? [v, v] : [(v as number[])[0], (v as number[])[1]]);
/** top, left, bottom, right */
const pads = (v: unknown): number[] => {
  if (v === undefined) return [0, 0, 0, 0];
  if (typeof v === 'number') return [v, v, v, v];
  const a = v as number[];
  return a.length === 2 ? [a[0], a[1], a[0], a[1]] : a;
};

interface G { kh: number; kw: number; sh: number; sw: number; dh: number; dw: number; p: number[] }
function geo(a: Attrs): G {
  const [kh, kw] = two(a.kernel_sizes), [sh, sw] = two(a.strides ?? 1), [dh, dw] = two(a.dilations ?? 1);
  return { kh, kw, sh, sw, dh, dw, p: pads(a.paddings) };
}
const outDim = (n: number, k: number, s: number, d: number, p0: number, p1: number) => Math.floor((n + p0 + p1 - (d * (k - 1) + 1)) / s) + 1;

/** Calls f(c, i, j, oh, ow, ih, iw) for every (channel, tap, block) whose source pixel is inside the image. */
function walk(C: number, H: number, W: number, g: G, f: (col: number, l: number, ch: number, ih: number, iw: number) => void): [number, number] {
  const OH = outDim(H, g.kh, g.sh, g.dh, g.p[0], g.p[2]), OW = outDim(W, g.kw, g.sw, g.dw, g.p[1], g.p[3]);
  for (let ch = 0; ch < C; ch++)
    for (let i = 0; i < g.kh; i++)
      for (let j = 0; j < g.kw; j++)
        for (let oh = 0; oh < OH; oh++)
          for (let ow = 0; ow < OW; ow++) {
            const ih = oh * g.sh - g.p[0] + i * g.dh, iw = ow * g.sw - g.p[1] + j * g.dw;
            if (ih >= 0 && ih < H && iw >= 0 && iw < W) f((ch * g.kh + i) * g.kw + j, oh * OW + ow, ch, ih, iw);
          }
  return [OH, OW];
}

function refUnfold(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const x = inputs[0] as NDArray;
  const [N, C, H, W] = x.shape;
  const g = geo(a);
  const OH = outDim(H, g.kh, g.sh, g.dh, g.p[0], g.p[2]), OW = outDim(W, g.kw, g.sw, g.dw, g.p[1], g.p[3]);
  const K = C * g.kh * g.kw, L = OH * OW;
  const out = new Array<number>(N * K * L).fill(0);
  for (let n = 0; n < N; n++) walk(C, H, W, g, (col, l, ch, ih, iw) => { out[(n * K + col) * L + l] = x.data[((n * C + ch) * H + ih) * W + iw]; });
  return { shape: [N, K, L], data: out, dtype: x.dtype };
}

function refFold(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const x = inputs[0] as NDArray;
  const [N, K, L] = x.shape;
  const [H, W] = two(a.output_sizes);
  const g = geo(a);
  const C = K / (g.kh * g.kw);
  const out = new Array<number>(N * C * H * W).fill(0);
  for (let n = 0; n < N; n++) walk(C, H, W, g, (col, l, ch, ih, iw) => { out[((n * C + ch) * H + ih) * W + iw] += x.data[(n * K + col) * L + l]; });
  return { shape: [N, C, H, W], data: out.map((v) => castValue(v, x.dtype)), dtype: x.dtype };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed);

addRecords({
  op: 'unfold',
  samples: [
    { inputs: [r([2, 3, 4, 5], 1)], attrs: { kernel_sizes: [2, 3] }, strided: true },
    { inputs: [r([1, 2, 6, 7], 2)], attrs: { kernel_sizes: 3, strides: 2, paddings: 1, dilations: 1 }, strided: true, note: 'stride 2, padding 1' },
    { inputs: [r([1, 2, 7, 6], 3)], attrs: { kernel_sizes: [2, 2], strides: [1, 2], paddings: [1, 0, 2, 1], dilations: [2, 1] }, note: 'asymmetric paddings, dilation' },
    { inputs: [r([1, 1, 3, 3], 4)], attrs: { kernel_sizes: 1, paddings: [1, 2] }, note: '1x1 kernel with [ph, pw] padding' },
    { inputs: [r([0, 2, 4, 4], 5)], attrs: { kernel_sizes: 2 }, note: 'empty batch' },
    { inputs: [r([1, 0, 4, 4], 6)], attrs: { kernel_sizes: 2 }, note: 'no channels' },
  ],
  ref: refUnfold,
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r([2, 3, 4], 1)], attrs: { kernel_sizes: 2 }, error: /unfold: input should be a 4-D tensor/ },
    { inputs: [r([1, 1, 2, 2], 1)], attrs: { kernel_sizes: 3 }, error: /unfold: output height would be 0/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { kernel_sizes: 2, strides: 0 }, error: /unfold: strides must be positive/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { kernel_sizes: 2, paddings: [1, 2, 3] }, error: /unfold: paddings must be an int/ },
    { inputs: [rand([1, 1, 4, 4], 'int32', 1)], attrs: { kernel_sizes: 2 }, error: /unfold: expected a floating-point input/ },
    { inputs: [r([], 1)], attrs: { kernel_sizes: 2 }, error: /unfold: input should be a 4-D tensor/ },
  ],
}, {
  op: 'fold',
  samples: [
    { inputs: [r([2, 12, 9], 1)], attrs: { output_sizes: [4, 5], kernel_sizes: [2, 3] }, strided: true, note: 'overlapping blocks' },
    { inputs: [r([1, 18, 12], 2)], attrs: { output_sizes: [6, 7], kernel_sizes: 3, strides: 2, paddings: 1 }, strided: true, note: 'stride 2, padding 1' },
    { inputs: [r([1, 8, 24], 3)], attrs: { output_sizes: [7, 6], kernel_sizes: [2, 2], strides: [1, 2], paddings: [1, 0, 2, 1], dilations: [2, 1] }, note: 'asymmetric paddings, dilation' },
    { inputs: [r([1, 4, 4], 4)], attrs: { output_sizes: 2, kernel_sizes: 1 }, note: '1x1 kernel' },
    { inputs: [r([0, 4, 9], 5)], attrs: { output_sizes: 4, kernel_sizes: 2 }, note: 'empty batch' },
  ],
  ref: refFold,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5, rtol: 1e-4,
  bad: [
    { inputs: [r([1, 4, 9], 1)], attrs: { output_sizes: 4, kernel_sizes: 3 }, error: /fold: the second dim 4 of input \[1, 4, 9\] must be divisible by kernel_sizes\[0\] \* kernel_sizes\[1\] = 9/ },
    { inputs: [r([1, 4, 8], 1)], attrs: { output_sizes: 4, kernel_sizes: 2 }, error: /fold: the last dim 8 of input \[1, 4, 8\] must equal the number of sliding blocks 3 \* 3 = 9/ },
    { inputs: [r([4, 9], 1)], attrs: { output_sizes: 4, kernel_sizes: 2 }, error: /fold: input should be a 3-D tensor/ },
    { inputs: [r([1, 4, 9], 1)], attrs: { output_sizes: [4, 0], kernel_sizes: 2 }, error: /fold: output_sizes must be positive/ },
    { inputs: [r([1, 4, 9], 1)], attrs: { output_sizes: 4, kernel_sizes: 2, dilations: -1 }, error: /fold: dilations must be positive/ },
  ],
});

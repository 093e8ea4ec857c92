// conv1d / conv3d / conv{1,2,3}d_transpose records: direct loop references over three spatial
// dims (1-D and 2-D inputs padded with size-1 dims), channel-first and channel-last layouts.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand } from '../ref.js';

type Attrs = Record<string, unknown>;
const listN = (v: unknown, n: number, d: number): number[] =>
  v === undefined || v === null ? new Array(n).fill(d) : typeof v === 'number' ? new Array(n).fill(v) : (v as number[]).length === 1 ? new Array(n).fill((v as number[])[0]) : [...(v as number[])];

/** [before, after] per spatial dim and whether SAME was asked for. */
export function refPadsNd(padding: unknown, n: number, channelLast: boolean): { pads: number[]; algo: string } {
  if (typeof padding === 'string') return { pads: new Array(2 * n).fill(0), algo: padding.toUpperCase() };
  if (padding === undefined || typeof padding === 'number') return { pads: new Array(2 * n).fill(padding ?? 0), algo: 'EXPLICIT' };
  const p = padding as unknown[];
  if (Array.isArray(p[0])) {
    const q = p as number[][];
    return { pads: (channelLast ? q.slice(1, n + 1) : q.slice(2)).flat(), algo: 'EXPLICIT' };
  }
  const v = p as number[];
  return { pads: v.length === n ? v.flatMap((x) => [x, x]) : v.length === 1 ? new Array(2 * n).fill(v[0]) : [...v], algo: 'EXPLICIT' };
}

export const refSame = (n: number, k: number, s: number): [number, number] => {
  const sum = Math.max((Math.ceil(n / s) - 1) * s + k - n, 0);
  return [Math.floor(sum / 2), sum - Math.floor(sum / 2)];
};

/** Reads element (n, c, spatial...) of an n-d tensor in either layout. */
export function reader(x: NDArray, cl: boolean) {
  const r = x.shape.length - 2;
  const C = cl ? x.shape[r + 1] : x.shape[1];
  const sp = cl ? x.shape.slice(1, r + 1) : x.shape.slice(2);
  const P = sp.reduce((a, b) => a * b, 1);
  return {
    N: x.shape[0], C, sp,
    at(n: number, c: number, idx: number[]): number {
      let o = 0;
      for (let i = 0; i < r; i++) o = o * sp[i] + idx[i];
      return x.data[cl ? (n * P + o) * C + c : (n * C + c) * P + o];
    },
  };
}

/** Flat index of (n, c, spatial...) in a contiguous output of either layout. */
export function outIndex(n: number, c: number, idx: number[], C: number, sp: number[], cl: boolean): number {
  let o = 0;
  for (let i = 0; i < sp.length; i++) o = o * sp[i] + idx[i];
  const P = sp.reduce((a, b) => a * b, 1);
  return cl ? (n * P + o) * C + c : (n * C + c) * P + o;
}

/** All multi-indices of a shape, row-major. */
export function* indices(shape: number[]): Generator<number[]> {
  const n = shape.reduce((a, b) => a * b, 1);
  for (let i = 0; i < n; i++) {
    const idx = new Array(shape.length);
    let t = i;
    for (let d = shape.length - 1; d >= 0; d--) { idx[d] = t % shape[d]; t = Math.floor(t / shape[d]); }
    yield idx;
  }
}

const isCl = (f: unknown) => f === 'NLC' || f === 'NHWC' || f === 'NDHWC';

function refConv(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const [x, w, b] = inputs as [NDArray, NDArray, NDArray | null];
  const r = x.shape.length - 2, cl = isCl(a.data_format);
  const X = reader(x, cl);
  const [Co, Cg] = w.shape, ks = w.shape.slice(2);
  const g = (a.groups as number) ?? 1, og = Co / g;
  const s = listN(a.stride, r, 1);
  let d = listN(a.dilation, r, 1);
  let { pads, algo } = refPadsNd(a.padding, r, cl);
  if (algo === 'SAME') { pads = X.sp.flatMap((n, i) => refSame(n, ks[i], s[i])); d = new Array(r).fill(1); }
  if (algo === 'VALID') pads = new Array(2 * r).fill(0);
  const out = X.sp.map((n, i) => Math.floor((n + pads[2 * i] + pads[2 * i + 1] - d[i] * (ks[i] - 1) - 1) / s[i]) + 1);
  const data = new Array<number>(X.N * Co * out.reduce((p, q) => p * q, 1));
  for (let n = 0; n < X.N; n++)
    for (let co = 0; co < Co; co++)
      for (const o of indices(out)) {
        let acc = b ? b.data[co] : 0;
        for (let ci = 0; ci < Cg; ci++)
          for (const t of indices(ks)) {
            const ii = o.map((v, i) => v * s[i] - pads[2 * i] + t[i] * d[i]);
            if (ii.some((v, i) => v < 0 || v >= X.sp[i])) continue;
            let wi = co * Cg + ci;
            for (let i = 0; i < r; i++) wi = wi * ks[i] + t[i];
            acc += X.at(n, Math.floor(co / og) * Cg + ci, ii) * w.data[wi];
          }
        data[outIndex(n, co, o, Co, out, cl)] = castValue(acc, x.dtype);
      }
  const shape = cl ? [X.N, ...out, Co] : [X.N, Co, ...out];
  return { shape, data, dtype: x.dtype };
}

function refConvTranspose(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const [x, w, b] = inputs as [NDArray, NDArray, NDArray | null];
  const r = x.shape.length - 2, cl = isCl(a.data_format);
  const X = reader(x, cl);
  const [, og] = w.shape, ks = w.shape.slice(2);
  const g = (a.groups as number) ?? 1, cg = X.C / g, Co = og * g;
  const s = listN(a.stride, r, 1);
  let d = listN(a.dilation, r, 1);
  let { pads, algo } = refPadsNd(a.padding, r, cl);
  if (algo === 'SAME') { pads = X.sp.flatMap((n, i) => refSame(n, ks[i], s[i])); d = new Array(r).fill(1); }
  if (algo === 'VALID') pads = new Array(2 * r).fill(0);
  const opad = listN(a.output_padding, r, 0);
  const osize = a.output_size === undefined || a.output_size === null ? null : listN(a.output_size, r, 0);
  const out = X.sp.map((n, i) => osize ? osize[i] : (n - 1) * s[i] - pads[2 * i] - pads[2 * i + 1] + d[i] * (ks[i] - 1) + 1 + opad[i]);
  const acc = new Array<number>(X.N * Co * out.reduce((p, q) => p * q, 1)).fill(0);
  for (let n = 0; n < X.N; n++)
    for (let ci = 0; ci < X.C; ci++)
      for (const ii of indices(X.sp)) {
        const v = X.at(n, ci, ii), grp = Math.floor(ci / cg);
        for (let oc = 0; oc < og; oc++)
          for (const t of indices(ks)) {
            const o = ii.map((q, i) => q * s[i] - pads[2 * i] + t[i] * d[i]);
            if (o.some((q, i) => q < 0 || q >= out[i])) continue;
            let wi = ci * og + oc;
            for (let i = 0; i < r; i++) wi = wi * ks[i] + t[i];
            acc[outIndex(n, grp * og + oc, o, Co, out, cl)] += v * w.data[wi];
          }
      }
  const P = out.reduce((p, q) => p * q, 1);
  const data = acc.map((v, i) => castValue(v + (b ? b.data[cl ? i % Co : Math.floor(i / P) % Co] : 0), x.dtype));
  return { shape: cl ? [X.N, ...out, Co] : [X.N, Co, ...out], data, dtype: x.dtype };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -1, 1);
const TOL = { dtypes: ['float64', 'float16', 'bfloat16'] as const, atol: 1e-5, rtol: 1e-4 };

addRecords({
  op: 'conv1d',
  samples: [
    { inputs: [r([2, 3, 10], 1), r([4, 3, 3], 2), r([4], 3)], strided: true, note: 'basic' },
    { inputs: [r([2, 4, 11], 4), r([6, 2, 3], 5), null], attrs: { stride: 2, padding: 1, dilation: 2, groups: 2 }, strided: true, note: 'stride, dilation, groups' },
    { inputs: [r([1, 3, 9], 6), r([3, 1, 3], 7), r([3], 8)], attrs: { groups: 3, padding: [2, 1] }, note: 'depthwise, asymmetric padding' },
    { inputs: [r([2, 9, 3], 9), r([4, 3, 4], 10), r([4], 11)], attrs: { stride: 2, padding: 'SAME', data_format: 'NLC' }, strided: true, note: 'NLC SAME' },
    { inputs: [r([1, 2, 8], 12), r([2, 2, 3], 13), null], attrs: { padding: 'VALID' }, note: 'VALID' },
    { inputs: [r([2, 11, 4], 18), r([8, 1, 3], 19), r([8], 20)], attrs: { groups: 4, stride: 2, dilation: 2, padding: 1, data_format: 'NLC' }, strided: true, note: 'NLC depthwise x2, dilation' },
    { inputs: [r([1, 2, 8], 14), r([2, 2, 3], 15), null], attrs: { padding: [[0, 0], [0, 0], [1, 2]] }, note: 'nested padding' },
    { inputs: [r([0, 3, 6], 16), r([2, 3, 3], 17), null], note: 'empty batch' },
  ],
  ref: refConv,
  ...TOL, dtypes: [...TOL.dtypes],
  bad: [
    { inputs: [r([1, 3, 5, 5], 1), r([2, 3, 3], 2), null], error: /conv1d: Input x should be 3D tensor/ },
    { inputs: [r([1, 3, 5], 1), r([2, 2, 3], 2), null], error: /conv1d: input channels 3 do not match weight \[2, 2, 3\] with groups 1/ },
    { inputs: [r([1, 3, 2], 1), r([2, 3, 3], 2), null], error: /conv1d: output length would be 0/ },
    { inputs: [r([1, 3, 5], 1), r([2, 3, 3], 2), null], attrs: { data_format: 'NCHW' }, error: /conv1d: data_format must be 'NCL' or 'NLC'/ },
    { inputs: [r([1, 3, 5], 1), r([2, 3, 3], 2), null], attrs: { stride: [1, 1] }, error: /conv1d: stride must be an int or a list of 1 int/ },
    { inputs: [rand([1, 3, 5], 'int32', 1), rand([2, 3, 3], 'int32', 2), null], error: /conv1d: expected a floating-point input, got int32/ },
  ],
}, {
  op: 'conv3d',
  samples: [
    { inputs: [r([2, 2, 5, 6, 5], 1), r([3, 2, 3, 3, 2], 2), r([3], 3)], attrs: { padding: 1 }, strided: true, note: 'basic' },
    { inputs: [r([1, 4, 6, 5, 7], 4), r([4, 2, 2, 3, 3], 5), null], attrs: { stride: [2, 1, 2], padding: [1, 0, 1, 1, 0, 2], dilation: [1, 2, 1], groups: 2 }, note: 'per-side padding, groups' },
    { inputs: [r([2, 4, 5, 5, 3], 6), r([4, 3, 3, 3, 3], 7), r([4], 8)], attrs: { stride: 2, padding: 'SAME', data_format: 'NDHWC' }, strided: true, note: 'NDHWC SAME' },
    { inputs: [r([1, 3, 4, 4, 4], 9), r([3, 1, 3, 3, 3], 10), null], attrs: { groups: 3, padding: [1, 1, 1] }, note: 'depthwise' },
    { inputs: [r([2, 5, 4, 6, 2], 13), r([4, 1, 2, 3, 3], 14), r([4], 15)], attrs: { groups: 2, stride: [1, 2, 2], padding: 'SAME', data_format: 'NDHWC' }, strided: true, note: 'NDHWC depthwise x2 SAME' },
    { inputs: [r([0, 2, 3, 3, 3], 11), r([2, 2, 2, 2, 2], 12), null], note: 'empty batch' },
  ],
  ref: refConv,
  ...TOL, dtypes: [...TOL.dtypes],
  bad: [
    { inputs: [r([1, 2, 4, 4], 1), r([2, 2, 3, 3, 3], 2), null], error: /conv3d: Input x should be 5D tensor/ },
    { inputs: [r([1, 3, 4, 4, 4], 1), r([3, 2, 3, 3, 3], 2), null], attrs: { groups: 2 }, error: /conv3d: the channel of input must be divisible by groups/ },
    { inputs: [r([1, 2, 4, 4, 4], 1), r([2, 2, 3, 3, 3], 2), null], attrs: { padding: [1, 2] }, error: /conv3d: padding must be/ },
    { inputs: [r([1, 2, 4, 4, 4], 1), r([2, 2, 3, 3, 3], 2), nd([3], [1, 2, 3])], error: /conv3d: bias must have shape \[2\]/ },
  ],
}, {
  op: 'conv1d_transpose',
  samples: [
    { inputs: [r([2, 3, 5], 1), r([3, 2, 3], 2), r([2], 3)], attrs: { stride: 2, padding: 1 }, strided: true, note: 'stride 2' },
    { inputs: [r([1, 4, 6], 4), r([4, 3, 3], 5), null], attrs: { stride: 3, output_padding: 2, groups: 2, dilation: 2 }, note: 'output_padding, groups, dilation' },
    { inputs: [r([2, 6, 4], 6), r([4, 2, 2], 7), r([2], 8)], attrs: { stride: 2, data_format: 'NLC', output_size: [13] }, strided: true, note: 'NLC output_size' },
    { inputs: [r([0, 3, 4], 9), r([3, 2, 3], 10), null], note: 'empty batch' },
  ],
  ref: refConvTranspose,
  ...TOL, dtypes: [...TOL.dtypes],
  bad: [
    { inputs: [r([1, 3, 5], 1), r([2, 2, 3], 2), null], error: /conv1d_transpose: input channels 3 do not match weight \[2, 2, 3\]/ },
    { inputs: [r([1, 3, 5], 1), r([3, 2, 3], 2), null], attrs: { stride: 2, output_padding: 2 }, error: /conv1d_transpose: output_padding .* must be less than/ },
    { inputs: [r([1, 3, 5], 1), r([3, 2, 3], 2), null], attrs: { stride: 2, output_size: [20] }, error: /conv1d_transpose: output_size \[20\] must lie in \[11, 13\)/ },
  ],
}, {
  op: 'conv2d_transpose',
  samples: [
    { inputs: [r([2, 3, 4, 5], 1), r([3, 4, 3, 3], 2), r([4], 3)], attrs: { stride: 2, padding: 1, output_padding: 1 }, strided: true, note: 'stride 2, output_padding' },
    { inputs: [r([1, 4, 3, 4], 4), r([4, 2, 3, 2], 5), null], attrs: { stride: [2, 1], padding: [1, 0, 0, 1], dilation: [1, 2], groups: 2 }, note: 'per-side padding, groups, dilation' },
    { inputs: [r([2, 4, 3, 3], 6), r([3, 2, 3, 3], 7), r([2], 8)], attrs: { stride: 2, padding: 'SAME', data_format: 'NHWC' }, strided: true, note: 'NHWC SAME' },
    { inputs: [r([1, 2, 3, 3], 9), r([2, 2, 2, 2], 10), null], attrs: { stride: 2, output_size: [7, 6] }, note: 'output_size' },
    { inputs: [r([1, 3, 4, 4], 11), r([3, 1, 3, 3], 12), null], attrs: { groups: 3, padding: 'VALID' }, note: 'depthwise VALID' },
    { inputs: [r([0, 2, 3, 3], 13), r([2, 2, 2, 2], 14), null], note: 'empty batch' },
  ],
  ref: refConvTranspose,
  ...TOL, dtypes: [...TOL.dtypes],
  bad: [
    { inputs: [r([1, 2, 3], 1), r([2, 2, 2, 2], 2), null], error: /conv2d_transpose: Input x should be 4D tensor/ },
    { inputs: [r([1, 2, 3, 3], 1), r([2, 2, 2, 2], 2), null], attrs: { output_padding: 1, output_size: [4, 4] }, error: /conv2d_transpose: output_padding option is mutually exclusive with output_size/ },
    { inputs: [r([1, 2, 3, 3], 1), r([2, 2, 2, 2], 2), null], attrs: { groups: 0 }, error: /conv2d_transpose: The groups of conv2d_transpose should be greater than 0/ },
  ],
}, {
  op: 'conv3d_transpose',
  samples: [
    { inputs: [r([2, 2, 3, 2, 3], 1), r([2, 3, 2, 3, 2], 2), r([3], 3)], attrs: { stride: 2, padding: [1, 0, 1] }, strided: true, note: 'stride 2' },
    { inputs: [r([1, 3, 2, 3, 2], 4), r([2, 2, 2, 2, 2], 5), null], attrs: { stride: [1, 2, 2], output_padding: [0, 1, 1], data_format: 'NDHWC' }, note: 'NDHWC output_padding' },
    { inputs: [r([0, 2, 2, 2, 2], 6), r([2, 1, 2, 2, 2], 7), null], note: 'empty batch' },
  ],
  ref: refConvTranspose,
  ...TOL, dtypes: [...TOL.dtypes],
  bad: [
    { inputs: [r([1, 2, 2, 2, 2], 1), rand([2, 1, 2, 2, 2], 'float64', 2), null], error: /conv3d_transpose: x and weight have different dtypes float32 and float64/ },
  ],
});

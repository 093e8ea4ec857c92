// interpolate records: a reference written from Paddle's interp formulas, one spatial dim at a
// time (each mode is separable: resample along W, then H, then D).
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, rand } from '../ref.js';

type Attrs = Record<string, unknown>;
const f = Math.fround;

function ratioOf(inn: number, out: number, alignCorners: boolean, scale: number): number {
  if (out <= 1) return 0;
  if (alignCorners) return f((inn - 1) / (out - 1));
  return scale > 0 ? f(1 / scale) : f(inn / out);
}

/** Resamples one line of values to `out` points. */
function line(v: number[], out: number, mode: string, ac: boolean, am: number, scale: number): number[] {
  const inn = v.length, ratio = ratioOf(inn, out, ac, scale);
  const res: number[] = [];
  for (let o = 0; o < out; o++) {
    if (mode === 'nearest') res.push(v[Math.min(Math.trunc(ratio * o), inn - 1)]);
    else if (mode === 'area') {
      const lo = Math.floor((o * inn) / out), hi = Math.ceil(((o + 1) * inn) / out);
      let s = 0;
      for (let i = lo; i < hi; i++) s += v[i];
      res.push(s / (hi - lo));
    } else if (mode === 'bicubic') {
      const src = ac ? ratio * o : ratio * (o + 0.5) - 0.5;
      const i = Math.floor(src), t = src - i, A = -0.75;
      const c1 = (x: number) => ((A + 2) * x - (A + 3)) * x * x + 1;
      const c2 = (x: number) => ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
      const w = [c2(t + 1), c1(t), c1(1 - t), c2(2 - t)];
      let s = 0;
      for (let k = 0; k < 4; k++) s += w[k] * v[Math.max(Math.min(i - 1 + k, inn - 1), 0)];
      res.push(s);
    } else {
      const flag = am === 0 && !ac;
      const i = Math.max(flag ? Math.trunc(ratio * (o + 0.5) - 0.5) : Math.trunc(ratio * o), 0);
      const e = i < inn - 1 ? 1 : 0;
      const d = flag ? f(Math.max(f(ratio * (o + 0.5) - 0.5), 0) - i) : f(f(ratio * o) - i);
      res.push((1 - d) * v[i] + d * v[i + e]);
    }
  }
  return res;
}

export function refInterp(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const x = inputs[0] as NDArray;
  const rank = x.shape.length, nd = rank - 2;
  const cl = typeof a.data_format === 'string' && a.data_format[a.data_format.length - 1] === 'C';
  const mode = ((a.mode as string) ?? 'nearest').toLowerCase();
  const ac = Boolean(a.align_corners), am = (a.align_mode as number) ?? 0;
  // Work in channel-first order: [N*C, ...spatial].
  const N = x.shape[0], C = cl ? x.shape[rank - 1] : x.shape[1];
  const sp = cl ? x.shape.slice(1, rank - 1) : x.shape.slice(2);
  const scaleList = a.scale_factor === undefined || a.scale_factor === null ? null : typeof a.scale_factor === 'number' ? new Array(nd).fill(a.scale_factor) : (a.scale_factor as number[]);
  const sizeList = a.size === undefined || a.size === null ? null : typeof a.size === 'number' ? new Array(nd).fill(a.size) : (a.size as number[]);
  const scales = scaleList ? scaleList.map(f) : new Array(nd).fill(0);
  const out = sizeList ?? sp.map((d, i) => Math.floor(f(d * scales[i])));
  const P = sp.reduce((p, q) => p * q, 1);
  let planes: number[][] = [];
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++) {
      const p: number[] = [];
      for (let q = 0; q < P; q++) p.push(x.data[cl ? (n * P + q) * C + c : (n * C + c) * P + q]);
      planes.push(p);
    }
  // Resample the last dim first, then earlier ones; `cur` tracks the current spatial shape.
  const cur = [...sp];
  for (let d = nd - 1; d >= 0; d--) {
    const before = cur.slice(0, d).reduce((p, q) => p * q, 1), after = cur.slice(d + 1).reduce((p, q) => p * q, 1);
    const next = [...cur];
    next[d] = out[d];
    planes = planes.map((p) => {
      const r = new Array<number>(before * out[d] * after);
      for (let b = 0; b < before; b++)
        for (let t = 0; t < after; t++) {
          const v: number[] = [];
          for (let i = 0; i < cur[d]; i++) v.push(p[(b * cur[d] + i) * after + t]);
          line(v, out[d], mode, ac, am, scales[d]).forEach((val, i) => { r[(b * out[d] + i) * after + t] = val; });
        }
      return r;
    });
    cur[d] = out[d];
  }
  const Q = out.reduce((p, q) => p * q, 1);
  const data = new Array<number>(N * C * Q);
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++)
      for (let q = 0; q < Q; q++) data[cl ? (n * Q + q) * C + c : (n * C + c) * Q + q] = castValue(planes[n * C + c][q], x.dtype);
  return { shape: cl ? [N, ...out, C] : [N, C, ...out], data, dtype: x.dtype };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -2, 2);

addRecords({
  op: 'interpolate',
  samples: [
    { inputs: [r([2, 3, 4, 5], 1)], attrs: { scale_factor: 2 }, strided: true, note: 'nearest x2' },
    { inputs: [r([1, 2, 7, 5], 2)], attrs: { size: [3, 4] }, note: 'nearest downsample' },
    { inputs: [r([2, 2, 4, 5], 3)], attrs: { size: [7, 9], mode: 'bilinear' }, strided: true, note: 'bilinear align_mode 0' },
    { inputs: [r([1, 2, 4, 5], 4)], attrs: { size: [7, 9], mode: 'bilinear', align_mode: 1 }, note: 'bilinear align_mode 1' },
    { inputs: [r([1, 2, 4, 5], 5)], attrs: { size: [7, 3], mode: 'bilinear', align_corners: true }, note: 'bilinear align_corners' },
    { inputs: [r([1, 4, 5, 3], 6)], attrs: { scale_factor: [1.5, 2], mode: 'bilinear', data_format: 'NHWC' }, strided: true, note: 'bilinear NHWC scale' },
    { inputs: [r([2, 2, 4, 5], 7)], attrs: { size: [6, 8], mode: 'bicubic' }, strided: true, note: 'bicubic' },
    { inputs: [r([1, 2, 5, 4], 8)], attrs: { size: [3, 7], mode: 'bicubic', align_corners: true }, note: 'bicubic align_corners' },
    { inputs: [r([2, 3, 6], 9)], attrs: { size: 10, mode: 'linear' }, strided: true, note: 'linear NCW' },
    { inputs: [r([1, 6, 3], 10)], attrs: { scale_factor: 0.5, mode: 'linear', data_format: 'NWC', align_corners: true }, note: 'linear NWC align_corners' },
    { inputs: [r([1, 2, 3, 4, 5], 11)], attrs: { size: [5, 3, 7], mode: 'trilinear' }, strided: true, note: 'trilinear' },
    { inputs: [r([1, 3, 3, 4, 2], 12)], attrs: { scale_factor: 2, mode: 'nearest', data_format: 'NDHWC' }, note: 'nearest 5-D NDHWC' },
    { inputs: [r([1, 2, 7, 9], 13)], attrs: { size: [3, 4], mode: 'area' }, note: 'area' },
    { inputs: [r([1, 2, 1, 4], 14)], attrs: { size: [1, 1], mode: 'bilinear' }, note: 'output of size 1' },
    { inputs: [r([0, 2, 3, 3], 15)], attrs: { size: [5, 5], mode: 'bilinear' }, note: 'empty batch' },
  ],
  ref: refInterp,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5,
  rtol: 1e-4,
  bad: [
    { inputs: [r([1, 2, 3, 3], 1)], attrs: {}, error: /interpolate: One of size and scale_factor must not be None/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4], scale_factor: 2 }, error: /interpolate: Only one of size or scale_factor should be defined/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4], mode: 'linear' }, error: /interpolate: mode 'linear' needs a 3-D input/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4], mode: 'nearest', align_corners: true }, error: /interpolate: The 'align_corners' option can only be set/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4], mode: 'cubic' }, error: /interpolate: The 'resample' of image_resize can only be/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4], mode: 'bilinear', align_mode: 2 }, error: /interpolate: align_mode can only be 0 or 1/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { scale_factor: -1 }, error: /interpolate: Attr\(scale\) should be greater than zero/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4, 4] }, error: /interpolate: size must be a positive int or a list of 2/ },
    { inputs: [r([1, 2, 3, 3], 1)], attrs: { size: [4, 4], data_format: 'NCDHW' }, error: /interpolate: data_format must be 'NCHW' or 'NHWC' for a 4-D input/ },
    { inputs: [r([1, 2], 1)], attrs: { size: [4] }, error: /interpolate: input should be a 3-D, 4-D or 5-D tensor/ },
  ],
});

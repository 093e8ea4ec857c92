// max/avg_pool1d/3d, adaptive pools and max_unpool records: direct references over n-d windows.
import { addRecords, type BadInput, type Sample } from '../op_db.js';
import { castValue, type NDArray, nd, rand } from '../ref.js';
import { indices, outIndex, reader, refPadsNd, refSame } from './nn_conv_more.js';

type Attrs = Record<string, unknown>;
const listN = (v: unknown, n: number): number[] => (typeof v === 'number' ? new Array(n).fill(v) : (v as number[]).length === 1 ? new Array(n).fill((v as number[])[0]) : [...(v as number[])]);
const isCl = (f: unknown) => f === 'NLC' || f === 'NHWC' || f === 'NDHWC';

/** Pools x over windows given per dim as [start, end) lists. */
function poolWith(x: NDArray, cl: boolean, wins: [number, number][][], kind: 'max' | 'avg', div: (area: number) => number, mask: boolean): NDArray | NDArray[] {
  const X = reader(x, cl);
  const out = wins.map((w) => w.length);
  const size = X.N * X.C * out.reduce((a, b) => a * b, 1);
  const data = new Array<number>(size), m = new Array<number>(size);
  for (let n = 0; n < X.N; n++)
    for (let c = 0; c < X.C; c++)
      for (const o of indices(out)) {
        const lo = o.map((q, i) => wins[i][q][0]), hi = o.map((q, i) => wins[i][q][1]);
        const ext = hi.map((h, i) => Math.max(0, h - lo[i]));
        let best = -Infinity, bi = -1, sum = 0;
        for (const t of indices(ext)) {
          const ii = t.map((v, i) => v + lo[i]);
          const v = X.at(n, c, ii);
          let flat = 0;
          for (let i = 0; i < ii.length; i++) flat = flat * X.sp[i] + ii[i];
          if (bi < 0 || v > best) { best = v; bi = flat; }
          sum += v;
        }
        const area = ext.reduce((a, b) => a * b, 1);
        const k = outIndex(n, c, o, X.C, out, cl);
        data[k] = castValue(kind === 'max' ? (bi < 0 ? -3.4028234663852886e38 : best) : div(area) === 0 ? NaN : sum / div(area), x.dtype);
        m[k] = bi;
      }
  const shape = cl ? [X.N, ...out, X.C] : [X.N, X.C, ...out];
  const res: NDArray = { shape, data, dtype: x.dtype };
  return mask ? [res, { shape, data: m, dtype: 'int32' }] : res;
}

export function refPool(kind: 'max' | 'avg') {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray | NDArray[] => {
    const x = inputs[0] as NDArray;
    const r = x.shape.length - 2, cl = isCl(a.data_format);
    const sp = cl ? x.shape.slice(1, r + 1) : x.shape.slice(2);
    const k = listN(a.kernel_size, r);
    const s = a.stride === undefined || a.stride === null ? k : listN(a.stride, r);
    let { pads, algo } = refPadsNd(a.padding, r, cl);
    if (algo === 'SAME') pads = sp.flatMap((n, i) => refSame(n, k[i], s[i]));
    if (algo === 'VALID') pads = new Array(2 * r).fill(0);
    const ceil = Boolean(a.ceil_mode);
    const wins = sp.map((n, i) => {
      const o = Math.floor((n + pads[2 * i] + pads[2 * i + 1] - k[i] + (ceil ? s[i] - 1 : 0)) / s[i]) + 1;
      return Array.from({ length: o }, (_, q): [number, number] => [Math.max(q * s[i] - pads[2 * i], 0), Math.min(q * s[i] - pads[2 * i] + k[i], n)]);
    });
    const vol = k.reduce((p, q) => p * q, 1);
    const exclusive = a.exclusive === undefined ? true : Boolean(a.exclusive);
    const dv = a.divisor_override as number | null | undefined;
    const div = (area: number) => (dv !== undefined && dv !== null ? dv * (exclusive ? area : vol) / vol : exclusive ? area : vol);
    return poolWith(x, cl, wins, kind, div, Boolean(a.return_mask));
  };
}

export function refAdaptive(kind: 'max' | 'avg') {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray | NDArray[] => {
    const x = inputs[0] as NDArray;
    const r = x.shape.length - 2, cl = isCl(a.data_format);
    const sp = cl ? x.shape.slice(1, r + 1) : x.shape.slice(2);
    const os = listN(a.output_size, r).map((d, i) => (d === null || d === -1 ? sp[i] : d));
    const wins = sp.map((n, i) => Array.from({ length: os[i] }, (_, q): [number, number] => [Math.floor((q * n) / os[i]), Math.ceil(((q + 1) * n) / os[i])]));
    return poolWith(x, cl, wins, kind, (area) => area, Boolean(a.return_mask));
  };
}

function refUnpool(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const [x, idx] = inputs as [NDArray, NDArray];
  const r = x.shape.length - 2;
  const sp = x.shape.slice(2);
  const k = listN(a.kernel_size, r), s = a.stride === undefined || a.stride === null ? k : listN(a.stride, r), p = listN(a.padding ?? 0, r);
  let out = sp.map((n, i) => (n - 1) * s[i] - 2 * p[i] + k[i]);
  if (a.output_size !== undefined && a.output_size !== null) out = (a.output_size as number[]).slice(-r);
  const P = out.reduce((q, t) => q * t, 1), pin = sp.reduce((q, t) => q * t, 1);
  const NC = x.shape[0] * x.shape[1];
  const data = new Array<number>(NC * P).fill(0);
  for (let nc = 0; nc < NC; nc++) for (let q = 0; q < pin; q++) data[nc * P + idx.data[nc * pin + q]] = x.data[nc * pin + q];
  return { shape: [x.shape[0], x.shape[1], ...out], data, dtype: x.dtype };
}

const rr = (shape: number[], seed: number) => rand(shape, 'float32', seed, -2, 2);
const DT = ['float64', 'float16', 'bfloat16'] as const;

const pool1: Sample[] = [
  { inputs: [rr([2, 3, 9], 1)], attrs: { kernel_size: 2 }, strided: true, note: 'stride defaults to kernel_size' },
  { inputs: [rr([1, 2, 9], 2)], attrs: { kernel_size: 3, stride: 2, padding: 1, ceil_mode: true }, strided: true, note: 'padding, ceil' },
  { inputs: [rr([1, 2, 8], 3)], attrs: { kernel_size: 3, stride: 2, padding: [0, 2] }, note: 'asymmetric padding' },
  { inputs: [rr([1, 2, 7], 4)], attrs: { kernel_size: 3, stride: 2, padding: 'SAME' }, note: 'SAME' },
  { inputs: [rr([0, 2, 6], 5)], attrs: { kernel_size: 2 }, note: 'empty batch' },
];
const pool3: Sample[] = [
  { inputs: [rr([2, 2, 4, 5, 6], 1)], attrs: { kernel_size: 2 }, strided: true, note: 'stride defaults to kernel_size' },
  { inputs: [rr([1, 2, 5, 5, 6], 2)], attrs: { kernel_size: [3, 2, 3], stride: [2, 1, 2], padding: 1, ceil_mode: true }, strided: true, note: 'padding, ceil' },
  { inputs: [rr([1, 5, 4, 6, 3], 3)], attrs: { kernel_size: 2, stride: [1, 2, 2], padding: [0, 1, 1, 0, 0, 1], data_format: 'NDHWC' }, strided: true, note: 'NDHWC, per-side padding' },
  { inputs: [rr([1, 1, 5, 5, 5], 4)], attrs: { kernel_size: 3, stride: 2, padding: 'SAME' }, note: 'SAME' },
  { inputs: [rr([0, 2, 2, 2, 2], 5)], attrs: { kernel_size: 2 }, note: 'empty batch' },
];
const badWin = (op: string, rank: number): BadInput[] => [
  { inputs: [rr(rank === 3 ? [1, 1, 2] : [1, 1, 2, 2, 2], 1)], attrs: { kernel_size: 3 }, error: new RegExp(`${op}: output (length|depth) would be 0`) },
  { inputs: [rr([1, 2, 2, 2], 1)], attrs: { kernel_size: 2 }, error: new RegExp(`${op}: input should be a ${rank}D tensor`) },
  { inputs: [rr(rank === 3 ? [1, 1, 4] : [1, 1, 4, 4, 4], 1)], attrs: { kernel_size: 2, stride: 0 }, error: new RegExp(`${op}: stride must be positive`) },
  { inputs: [rr(rank === 3 ? [1, 1, 4] : [1, 1, 4, 4, 4], 1)], attrs: { kernel_size: 2, padding: 'VALID', ceil_mode: true }, error: new RegExp(`${op}: When Attr\\(padding\\) is "VALID"`) },
  { inputs: [rand(rank === 3 ? [1, 1, 4] : [1, 1, 4, 4, 4], 'int32', 1)], attrs: { kernel_size: 2 }, error: new RegExp(`${op}: expected a floating-point input, got int32`) },
];

addRecords({
  op: 'max_pool1d',
  samples: [...pool1, { inputs: [rr([2, 2, 7], 6)], attrs: { kernel_size: 3, stride: 2, padding: 1, return_mask: true }, strided: true, note: 'return_mask' }],
  ref: refPool('max'), dtypes: [...DT], bad: badWin('max_pool1d', 3),
}, {
  op: 'max_pool3d',
  samples: [...pool3, { inputs: [rr([1, 2, 4, 5, 4], 6)], attrs: { kernel_size: 2, stride: 2, padding: 1, return_mask: true }, strided: true, note: 'return_mask' }],
  ref: refPool('max'), dtypes: [...DT],
  bad: [...badWin('max_pool3d', 5), { inputs: [rr([1, 4, 4, 4, 1], 1)], attrs: { kernel_size: 2, return_mask: true, data_format: 'NDHWC' }, error: /max_pool3d: When setting return_mask to true/ }],
}, {
  op: 'avg_pool1d',
  samples: [...pool1, { inputs: [rr([1, 2, 9], 7)], attrs: { kernel_size: 3, stride: 2, padding: 1, exclusive: false }, note: 'exclusive=False' }],
  ref: refPool('avg'), dtypes: [...DT], bad: badWin('avg_pool1d', 3),
}, {
  op: 'avg_pool3d',
  samples: [...pool3,
    { inputs: [rr([1, 2, 5, 5, 5], 7)], attrs: { kernel_size: 3, stride: 2, padding: 1, exclusive: false }, note: 'exclusive=False' },
    { inputs: [rr([1, 2, 4, 4, 4], 8)], attrs: { kernel_size: 2, padding: 1, divisor_override: 3 }, note: 'divisor_override' }],
  ref: refPool('avg'), dtypes: [...DT],
  bad: [...badWin('avg_pool3d', 5), { inputs: [rr([1, 1, 4, 4, 4], 1)], attrs: { kernel_size: 2, divisor_override: 0 }, error: /avg_pool3d: divisor_override must be a nonzero number/ }],
});

const adaptive = (kind: 'avg' | 'max') => {
  const mask = kind === 'max';
  const badOut = (op: string, shape: number[]): BadInput => ({ inputs: [rr(shape, 1)], attrs: { output_size: 0 }, error: new RegExp(`${op}: output_size must be a positive int`) });
  addRecords({
    op: `adaptive_${kind}_pool1d`,
    samples: [
      { inputs: [rr([2, 3, 10], 1)], attrs: { output_size: 4 }, strided: true, note: 'overlapping windows' },
      { inputs: [rr([1, 2, 5], 2)], attrs: { output_size: [7] }, note: 'output larger than input' },
      ...(mask ? [{ inputs: [rr([2, 2, 9], 3)], attrs: { output_size: 4, return_mask: true }, strided: true, note: 'return_mask' }] : []),
      { inputs: [rr([0, 2, 6], 4)], attrs: { output_size: 3 }, note: 'empty batch' },
    ],
    ref: refAdaptive(kind), dtypes: [...DT],
    bad: [badOut(`adaptive_${kind}_pool1d`, [1, 2, 4]), { inputs: [rr([1, 4], 1)], attrs: { output_size: 2 }, error: new RegExp(`adaptive_${kind}_pool1d: input should be a 3D tensor`) }],
  }, {
    op: `adaptive_${kind}_pool2d`,
    samples: [
      { inputs: [rr([2, 3, 7, 9], 1)], attrs: { output_size: [3, 4] }, strided: true, note: 'uneven windows' },
      { inputs: [rr([1, 2, 6, 5], 2)], attrs: { output_size: 1 }, note: 'global pool' },
      { inputs: [rr([1, 2, 6, 5], 3)], attrs: { output_size: [-1, 2] }, note: '-1 (None) keeps the input size' },
      ...(mask ? [{ inputs: [rr([2, 2, 5, 6], 4)], attrs: { output_size: [2, 3], return_mask: true }, strided: true, note: 'return_mask' }]
        : [{ inputs: [rr([2, 5, 6, 3], 4)], attrs: { output_size: [2, 4], data_format: 'NHWC' }, strided: true, note: 'NHWC' }]),
      { inputs: [rr([0, 2, 4, 4], 5)], attrs: { output_size: 2 }, note: 'empty batch' },
    ],
    ref: refAdaptive(kind), dtypes: [...DT],
    bad: [badOut(`adaptive_${kind}_pool2d`, [1, 2, 4, 4])],
  }, {
    op: `adaptive_${kind}_pool3d`,
    samples: [
      { inputs: [rr([2, 2, 5, 6, 7], 1)], attrs: { output_size: [2, 3, 4] }, strided: true, note: 'uneven windows' },
      ...(mask ? [{ inputs: [rr([1, 2, 4, 5, 3], 2)], attrs: { output_size: 2, return_mask: true }, note: 'return_mask' }]
        : [{ inputs: [rr([1, 4, 5, 3, 2], 2)], attrs: { output_size: 2, data_format: 'NDHWC' }, strided: true, note: 'NDHWC' }]),
      { inputs: [rr([0, 2, 3, 3, 3], 3)], attrs: { output_size: 2 }, note: 'empty batch' },
    ],
    ref: refAdaptive(kind), dtypes: [...DT],
    bad: [badOut(`adaptive_${kind}_pool3d`, [1, 2, 4, 4, 4])],
  });
};
adaptive('avg');
adaptive('max');

/** Unpool inputs: values and distinct in-range indices as max_pool would produce them. */
function unpoolSample(shape: number[], outSp: number[], seed: number): [NDArray, NDArray] {
  const x = rr(shape, seed);
  const pin = shape.slice(2).reduce((a, b) => a * b, 1), P = outSp.reduce((a, b) => a * b, 1);
  const data: number[] = [];
  for (let nc = 0; nc < shape[0] * shape[1]; nc++) for (let q = 0; q < pin; q++) data.push((q * 3 + nc) % P);
  return [x, nd(shape, data, 'int32')];
}

addRecords({
  op: 'max_unpool2d',
  samples: [
    { inputs: unpoolSample([2, 3, 2, 3], [4, 6], 1), attrs: { kernel_size: 2 }, strided: true, note: 'kernel 2' },
    { inputs: unpoolSample([1, 2, 3, 3], [5, 5], 2), attrs: { kernel_size: 3, stride: 2, padding: 1, output_size: [5, 5] }, note: 'output_size, padding' },
    { inputs: unpoolSample([0, 2, 2, 2], [4, 4], 3), attrs: { kernel_size: 2 }, note: 'empty batch' },
  ],
  ref: refUnpool, dtypes: [...DT],
  bad: [
    { inputs: [rr([1, 1, 2, 2], 1), nd([1, 1, 2, 2], [0, 1, 2, 16], 'int32')], attrs: { kernel_size: 2 }, error: /max_unpool2d: index 16 at position 3 is out of range \[0, 16\)/ },
    { inputs: [rr([1, 1, 2, 2], 1), nd([1, 1, 2, 2], [0, 1, 2, 3], 'int32')], attrs: { kernel_size: 2, output_size: [9, 9] }, error: /max_unpool2d: invalid output_size/ },
    { inputs: [rr([1, 1, 2, 2], 1), nd([1, 1, 2], [0, 1], 'int32')], attrs: { kernel_size: 2 }, error: /max_unpool2d: indices shape \[1, 1, 2\] differs/ },
  ],
}, {
  op: 'max_unpool1d',
  samples: [
    { inputs: unpoolSample([2, 3, 4], [8], 4), attrs: { kernel_size: 2 }, strided: true, note: 'kernel 2' },
    { inputs: unpoolSample([0, 3, 4], [8], 5), attrs: { kernel_size: 2 }, note: 'empty batch' },
  ],
  ref: refUnpool, dtypes: [...DT],
  bad: [{ inputs: [rr([1, 1, 2, 2], 1), nd([1, 1, 2, 2], [0, 1, 2, 3], 'int32')], attrs: { kernel_size: 2 }, error: /max_unpool1d: input should be a 3D tensor/ }],
}, {
  op: 'max_unpool3d',
  samples: [
    { inputs: unpoolSample([1, 2, 2, 2, 3], [4, 4, 6], 6), attrs: { kernel_size: 2 }, strided: true, note: 'kernel 2' },
    { inputs: unpoolSample([0, 2, 2, 2, 2], [4, 4, 4], 7), attrs: { kernel_size: 2 }, note: 'empty batch' },
  ],
  ref: refUnpool, dtypes: [...DT],
  bad: [{ inputs: [rand([1, 1, 2, 2, 2], 'int32', 1), nd([1, 1, 2, 2, 2], [0, 1, 2, 3, 4, 5, 6, 7], 'int32')], attrs: { kernel_size: 2 }, error: /max_unpool3d: expected a floating-point input, got int32/ }],
});

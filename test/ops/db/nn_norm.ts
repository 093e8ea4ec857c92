// softmax, log_softmax, layer_norm, batch_norm records.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand, size } from '../ref.js';
import type { DType } from '../../../src/tensor/dtype.js';

type Attrs = Record<string, unknown>;
type In = (NDArray | NDArray[] | null)[];

/** Shape as [outer, n, inner] around axis. */
function around(shape: number[], axis: number): [number, number, number] {
  const ax = shape.length === 0 ? 0 : axis < 0 ? axis + shape.length : axis;
  return [size(shape.slice(0, ax)), shape.length ? shape[ax] : 1, size(shape.slice(ax + 1))];
}

function refSoftmax(log: boolean) {
  return (inputs: In, a: Attrs): NDArray => {
    const x0 = inputs[0] as NDArray;
    const x = { ...x0, data: x0.data.map((v) => castValue(v, x0.dtype)) };  // what the kernel reads
    const dt = (a.dtype as DType | undefined) ?? x.dtype;
    const [outer, n, inner] = around(x.shape, (a.axis as number | undefined) ?? -1);
    const out = new Array<number>(x.data.length);
    for (let o = 0; o < outer; o++)
      for (let i = 0; i < inner; i++) {
        const at = (k: number) => (o * n + k) * inner + i;
        let m = -Infinity;
        for (let k = 0; k < n; k++) m = Math.max(m, x.data[at(k)]);
        let s = 0;
        for (let k = 0; k < n; k++) s += Math.exp(x.data[at(k)] - m);
        for (let k = 0; k < n; k++) out[at(k)] = castValue(log ? x.data[at(k)] - m - Math.log(s) : Math.exp(x.data[at(k)] - m) / s, dt);
      }
    return { shape: x.shape, data: out, dtype: dt };
  };
}

const r = (shape: number[], seed: number, lo = -3, hi = 3) => rand(shape, 'float32', seed, lo, hi);
const softmaxSamples = [
  { inputs: [r([3, 5], 1)] },
  { inputs: [r([2, 3, 4], 2)], attrs: { axis: 1 }, strided: true, note: 'middle axis' },
  { inputs: [r([2, 3, 70], 3)], attrs: { axis: 0 }, note: 'leading axis, wide inner' },
  { inputs: [r([4], 4)], attrs: { axis: 0 } },
  { inputs: [nd([], [2.5])], note: '0-dim' },
  { inputs: [r([0, 3], 5)], note: 'empty' },
  { inputs: [nd([2, 3], [1000, 0, -1000, 88, 89, 90])], note: 'large logits' },
  { inputs: [r([2, 3], 6)], attrs: { dtype: 'float64' }, note: 'dtype argument' },
];
const softmaxBad = (op: string) => [
  { inputs: [r([2, 3], 1)], attrs: { axis: 2 }, error: new RegExp(`${op}: axis 2 is out of range`) },
  { inputs: [rand([2, 3], 'int64', 1)], error: new RegExp(`${op}: expected a floating-point input, got int64`) },
  { inputs: [r([2, 3], 1)], attrs: { dtype: 'int32' }, error: new RegExp(`${op}: dtype must be a floating type`) },
];

function refLayerNorm(inputs: In, a: Attrs): NDArray[] {
  const [x, g, b] = inputs as [NDArray, NDArray | null, NDArray | null];
  const begin = (a.begin_norm_axis as number | undefined) ?? 1;
  const eps = (a.epsilon as number | undefined) ?? 1e-5;
  const left = size(x.shape.slice(0, begin)), right = size(x.shape.slice(begin));
  const out = new Array<number>(x.data.length), mean: number[] = [], vari: number[] = [];
  const statDt: DType = x.dtype === 'float64' ? 'float64' : 'float32';
  for (let l = 0; l < left; l++) {
    const row = x.data.slice(l * right, (l + 1) * right);
    const m = row.reduce((p, v) => p + v, 0) / right;
    const v = row.reduce((p, e) => p + (e - m) ** 2, 0) / right;
    row.forEach((e, i) => { out[l * right + i] = castValue(((e - m) / Math.sqrt(v + eps)) * (g ? g.data[i] : 1) + (b ? b.data[i] : 0), x.dtype); });
    mean.push(castValue(m, statDt));
    vari.push(castValue(v, statDt));
  }
  return [{ shape: x.shape, data: out, dtype: x.dtype }, { shape: [left], data: mean, dtype: statDt }, { shape: [left], data: vari, dtype: statDt }];
}

function refBatchNorm(inputs: In, a: Attrs): NDArray[] {
  const [x, rm, rv, w, b] = inputs as [NDArray, NDArray, NDArray, NDArray | null, NDArray | null];
  const fmt = (a.data_format as string | undefined) ?? 'NCHW';
  const cax = fmt[1] === 'C' ? 1 : x.shape.length - 1;
  const [outer, C, inner] = around(x.shape, cax);
  const training = Boolean(a.training);
  const ugs = a.use_global_stats;
  const global = ugs === undefined || ugs === null ? !training : Boolean(ugs);
  const mom = (a.momentum as number | undefined) ?? 0.9, eps = (a.epsilon as number | undefined) ?? 1e-5;
  const mean = [...rm.data], vari = [...rv.data];
  const meanOut = [...rm.data], varOut = [...rv.data];
  if (!global) {
    for (let c = 0; c < C; c++) {
      const vals: number[] = [];
      for (let o = 0; o < outer; o++) for (let i = 0; i < inner; i++) vals.push(x.data[(o * C + c) * inner + i]);
      const m = vals.reduce((p, v) => p + v, 0) / vals.length;
      const v = vals.reduce((p, e) => p + (e - m) ** 2, 0) / vals.length;
      mean[c] = m; vari[c] = v;
      meanOut[c] = rm.data[c] * mom + m * (1 - mom);
      varOut[c] = rv.data[c] * mom + v * (1 - mom);
    }
  }
  const out = x.data.map((v, idx) => {
    const c = Math.floor(idx / inner) % C;
    return castValue(((v - mean[c]) / Math.sqrt(vari[c] + eps)) * (w ? w.data[c] : 1) + (b ? b.data[c] : 0), x.dtype);
  });
  const dt = x.dtype;
  return [{ shape: x.shape, data: out, dtype: dt }, { shape: [C], data: meanOut.map((v) => castValue(v, dt)), dtype: dt }, { shape: [C], data: varOut.map((v) => castValue(v, dt)), dtype: dt }];
}

const pos = (shape: number[], seed: number) => rand(shape, 'float32', seed, 0.5, 2);

addRecords({
  op: 'softmax', samples: softmaxSamples, ref: refSoftmax(false), dtypes: ['float64', 'float16', 'bfloat16'], bad: softmaxBad('softmax'),
}, {
  op: 'log_softmax', samples: softmaxSamples, ref: refSoftmax(true), dtypes: ['float64', 'float16', 'bfloat16'], bad: softmaxBad('log_softmax'),
}, {
  op: 'layer_norm',
  samples: [
    { inputs: [r([2, 3, 4], 1), r([4], 2), r([4], 3)], attrs: { begin_norm_axis: 2 }, strided: true },
    { inputs: [r([2, 3, 4], 4), r([12], 5), r([12], 6)], attrs: { begin_norm_axis: 1, epsilon: 1e-3 }, note: 'flattened parameters' },
    { inputs: [r([3, 2, 2], 7), r([2, 2], 8), null], attrs: { begin_norm_axis: 1 }, note: 'weight only, 2-D weight' },
    { inputs: [r([4, 5], 9), null, null], strided: true, note: 'no affine' },
    { inputs: [r([6], 10), null, r([6], 11)], attrs: { begin_norm_axis: 0 }, note: 'whole tensor' },
    { inputs: [r([0, 5], 12), null, null], note: 'empty' },
  ],
  ref: refLayerNorm,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5, rtol: 1e-4,
  bad: [
    { inputs: [r([2, 3], 1), r([4], 2), null], error: /layer_norm: weight of shape \[4\] does not match normalized shape \[3\]/ },
    { inputs: [r([2, 3], 1), null, null], attrs: { begin_norm_axis: 2 }, error: /layer_norm: begin_norm_axis 2 is out of range/ },
    { inputs: [rand([2, 3], 'int32', 1), null, null], error: /layer_norm: expected a floating-point input/ },
    { inputs: [r([2, 3], 1), rand([3], 'float64', 2), null], error: /layer_norm: weight dtype float64 differs/ },
  ],
}, {
  op: 'batch_norm',
  samples: [
    { inputs: [r([2, 3, 4, 4], 1), r([3], 2), pos([3], 3), r([3], 4), r([3], 5)], strided: true, note: 'inference NCHW' },
    { inputs: [r([2, 3, 4], 6), r([3], 7), pos([3], 8), null, null], attrs: { data_format: 'NCL' }, note: 'no affine' },
    { inputs: [r([4, 3, 5], 9), r([3], 10), pos([3], 11), r([3], 12), r([3], 13)], attrs: { training: true, momentum: 0.8, data_format: 'NCL' }, strided: true, note: 'training: batch stats' },
    { inputs: [r([2, 4, 4, 3], 14), r([3], 15), pos([3], 16), r([3], 17), r([3], 18)], attrs: { data_format: 'NHWC' }, note: 'NHWC inference' },
    { inputs: [r([2, 4, 4, 3], 19), r([3], 20), pos([3], 21), r([3], 22), null], attrs: { data_format: 'NHWC', training: true }, note: 'NHWC training' },
    { inputs: [r([8, 5], 23), r([5], 24), pos([5], 25), null, r([5], 26)], attrs: { training: true, data_format: 'NC' }, note: 'NC training' },
    { inputs: [r([4, 3], 27), r([3], 28), pos([3], 29), null, null], attrs: { training: true, use_global_stats: true, data_format: 'NC' }, note: 'use_global_stats=True' },
    { inputs: [r([4, 3], 30), r([3], 31), pos([3], 32), null, null], attrs: { training: false, use_global_stats: false, data_format: 'NC' }, note: 'use_global_stats=False' },
  ],
  ref: refBatchNorm,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5, rtol: 1e-4,
  bad: [
    { inputs: [r([2, 3, 4, 4], 1), r([4], 2), pos([3], 3), null, null], error: /batch_norm: running_mean must have shape \[3\]/ },
    { inputs: [r([2], 1), r([1], 2), pos([1], 3), null, null], error: /batch_norm: input must have rank 2 to 5/ },
    { inputs: [r([2, 3], 1), r([3], 2), pos([3], 3), null, null], attrs: { data_format: 'CHW' }, error: /batch_norm: data_format must be one of/ },
    { inputs: [r([2, 3], 1), r([3], 2), rand([3], 'float64', 3), null, null], error: /batch_norm: running_var dtype float64 differs/ },
    { inputs: [r([0, 3], 1), r([3], 2), pos([3], 3), null, null], attrs: { training: true }, error: /batch_norm: cannot compute batch statistics of an empty input/ },
  ],
});

// group_norm / instance_norm records: per-group two-pass mean and biased variance in float64.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand } from '../ref.js';

type Attrs = Record<string, unknown>;

function refGroupNorm(instance: boolean) {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray[] => {
    const [x, s, b] = inputs as [NDArray, NDArray | null, NDArray | null];
    const f = (a.data_format as string | undefined) ?? 'NCHW';
    const cl = f[1] !== 'C';
    const rank = x.shape.length, N = x.shape[0], C = cl ? x.shape[rank - 1] : x.shape[1];
    const P = N * C === 0 ? 0 : x.data.length / (N * C);
    const G = instance ? C : (a.groups as number), Cg = C / G;
    const eps = (a.epsilon as number | undefined) ?? 1e-5;
    const at = (n: number, c: number, p: number) => (cl ? (n * P + p) * C + c : (n * C + c) * P + p);
    const y = new Array<number>(x.data.length), mean: number[] = [], vari: number[] = [];
    const sdt = x.dtype === 'float64' ? 'float64' : 'float32';
    for (let n = 0; n < N; n++)
      for (let g = 0; g < G; g++) {
        let sum = 0, cnt = 0;
        for (let c = g * Cg; c < (g + 1) * Cg; c++) for (let p = 0; p < P; p++) { sum += x.data[at(n, c, p)]; cnt++; }
        const m = cnt ? sum / cnt : 0;
        let sq = 0;
        for (let c = g * Cg; c < (g + 1) * Cg; c++) for (let p = 0; p < P; p++) sq += (x.data[at(n, c, p)] - m) ** 2;
        const v = cnt ? sq / cnt : 0;
        for (let c = g * Cg; c < (g + 1) * Cg; c++)
          for (let p = 0; p < P; p++) {
            const i = at(n, c, p);
            y[i] = castValue(((x.data[i] - m) / Math.sqrt(v + eps)) * (s ? s.data[c] : 1) + (b ? b.data[c] : 0), x.dtype);
          }
        mean.push(castValue(m, sdt));
        vari.push(castValue(v, sdt));
      }
    return [{ shape: x.shape, data: y, dtype: x.dtype }, { shape: [N, G], data: mean, dtype: sdt }, { shape: [N, G], data: vari, dtype: sdt }];
  };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -2, 2);

addRecords({
  op: 'group_norm',
  samples: [
    { inputs: [r([2, 6, 3, 4], 1), r([6], 2), r([6], 3)], attrs: { groups: 3 }, strided: true, note: 'NCHW, affine' },
    { inputs: [r([2, 4, 5], 4), null, null], attrs: { groups: 2, epsilon: 1e-3, data_format: 'NCL' }, strided: true, note: 'NCL, no affine' },
    { inputs: [r([2, 3, 2, 4], 5), r([4], 6), r([4], 7)], attrs: { groups: 4, data_format: 'NHWC' }, strided: true, note: 'NHWC, one channel per group' },
    { inputs: [r([1, 4, 2, 2, 3], 8), r([4], 9), null], attrs: { groups: 1, data_format: 'NCDHW' }, note: '5-D, one group' },
    { inputs: [r([0, 4, 3, 3], 10), null, null], attrs: { groups: 2 }, note: 'empty batch' },
  ],
  ref: refGroupNorm(false),
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-4,
  rtol: 1e-4,
  bad: [
    { inputs: [r([1, 6, 2, 2], 1), null, null], attrs: { groups: 4 }, error: /group_norm: the number of channels 6 of input \[1, 6, 2, 2\] must be divisible by num_groups 4/ },
    { inputs: [r([1, 4, 2, 2], 1), r([3], 2), null], attrs: { groups: 2 }, error: /group_norm: weight must have shape \[4\]/ },
    { inputs: [r([1, 4, 2, 2], 1), null, null], attrs: { groups: 2, data_format: 'CHWN' }, error: /group_norm: data_format must be one of/ },
    { inputs: [rand([1, 4, 2, 2], 'int32', 1), null, null], attrs: { groups: 2 }, error: /group_norm: expected a floating-point input, got int32/ },
  ],
}, {
  op: 'instance_norm',
  samples: [
    { inputs: [r([2, 3, 4, 5], 1), r([3], 2), r([3], 3)], strided: true, note: 'NCHW, affine' },
    { inputs: [r([3, 2, 7], 4), null, null], attrs: { epsilon: 1e-3, data_format: 'NCL' }, strided: true, note: 'NCL' },
    { inputs: [r([2, 2, 2, 3, 2], 5), r([2], 6), null], attrs: { data_format: 'NCDHW' }, note: '5-D' },
    { inputs: [r([0, 3, 2, 2], 7), null, null], note: 'empty batch' },
  ],
  ref: refGroupNorm(true),
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-4,
  rtol: 1e-4,
  bad: [
    { inputs: [r([1, 3, 2, 2], 1), nd([2], [1, 1]), null], error: /instance_norm: weight must have shape \[3\]/ },
    { inputs: [r([1, 3, 2, 2], 1), null, null], attrs: { data_format: 'NHWC' }, error: /instance_norm: data_format must be one of NC, NCL, NCHW, NCDHW/ },
    { inputs: [r([3], 1), null, null], error: /instance_norm: input should have at least 2 dims/ },
  ],
});

function refLrn(inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray {
  const x = inputs[0] as NDArray;
  const f = (a.data_format as string | undefined) ?? 'NCHW';
  const cl = f[f.length - 1] === 'C';
  const rank = x.shape.length, N = x.shape[0], C = cl ? x.shape[rank - 1] : x.shape[1];
  const P = N * C === 0 ? 0 : x.data.length / (N * C);
  const size = a.size as number, alpha = (a.alpha as number | undefined) ?? 1e-4, beta = (a.beta as number | undefined) ?? 0.75, k = (a.k as number | undefined) ?? 1;
  const at = (n: number, c: number, p: number) => (cl ? (n * P + p) * C + c : (n * C + c) * P + p);
  const data = new Array<number>(x.data.length);
  for (let n = 0; n < N; n++)
    for (let p = 0; p < P; p++)
      for (let c = 0; c < C; c++) {
        let sq = 0;
        for (let j = c - Math.floor(size / 2); j <= c + Math.floor((size - 1) / 2); j++) if (j >= 0 && j < C) sq += x.data[at(n, j, p)] ** 2;
        data[at(n, c, p)] = castValue(x.data[at(n, c, p)] / (k + (alpha * sq) / size) ** beta, x.dtype);
      }
  return { shape: x.shape, data, dtype: x.dtype };
}

addRecords({
  op: 'local_response_norm',
  samples: [
    { inputs: [r([2, 7, 3, 4], 1)], attrs: { size: 5, alpha: 0.5, beta: 0.75, k: 2 }, strided: true, note: 'NCHW' },
    { inputs: [r([2, 4, 6], 2)], attrs: { size: 2, alpha: 1, data_format: 'NCL' }, strided: true, note: 'NCL, even size' },
    { inputs: [r([1, 3, 2, 5], 3)], attrs: { size: 3, alpha: 0.3, data_format: 'NHWC' }, strided: true, note: 'NHWC' },
    { inputs: [r([1, 5, 2, 2, 3], 4)], attrs: { size: 4, alpha: 0.2, beta: 0.5, data_format: 'NCDHW' }, note: '5-D' },
    { inputs: [r([0, 3, 2, 2], 5)], attrs: { size: 3 }, note: 'empty batch' },
  ],
  ref: refLrn,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5,
  rtol: 1e-4,
  bad: [
    { inputs: [r([2, 3], 1)], attrs: { size: 3 }, error: /local_response_norm: input should be a 3-D, 4-D or 5-D tensor/ },
    { inputs: [r([1, 3, 2, 2], 1)], attrs: { size: 3, data_format: 'NCL' }, error: /local_response_norm: data_format must be 'NCHW' or 'NHWC' for a 4-D input/ },
    { inputs: [r([1, 3, 2, 2], 1)], attrs: { size: 0 }, error: /local_response_norm: size must be a positive int/ },
  ],
});

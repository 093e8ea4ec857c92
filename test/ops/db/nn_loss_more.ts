// Records of the losses in src/ops/defs/nn_loss_more.ts, each against Paddle 2.6's formula
// written out elementwise.
import { addRecords } from '../op_db.js';
import { castValue, mapN, type NDArray, nd, rand, size } from '../ref.js';

type Attrs = Record<string, unknown>;
type In = (NDArray | NDArray[] | null)[];

/** Applies Paddle's reduction to per-element losses of `shape` (batch: input.shape[0]). */
function reduce(l: NDArray, a: Attrs, batch = 1): NDArray {
  const red = (a.reduction as string | undefined) ?? 'mean';
  const dt = l.dtype;
  if (red === 'none') return { ...l, data: l.data.map((v) => castValue(v, dt)) };
  const s = l.data.reduce((p, v) => p + v, 0);
  const v = red === 'sum' ? s : red === 'batchmean' ? s / batch : s / l.data.length;
  return { shape: [], data: [castValue(v, dt)], dtype: dt };
}

/** A record's ref from a per-element loss over broadcast tensor inputs (absent optionals dropped). */
const pointwiseRef = (f: (a: Attrs, ...v: number[]) => number, fill: (ins: In) => NDArray[] = (ins) => ins.filter(Boolean) as NDArray[]) =>
  (ins: In, a: Attrs) => {
    const arr = fill(ins);
    const x = ins[0] as NDArray;
    return reduce(mapN(arr, (...v) => f(a, ...v), x.dtype), a, x.shape.length ? x.shape[0] : 1);
  };

const r = (shape: number[], seed: number, lo = -2, hi = 2) => rand(shape, 'float32', seed, lo, hi);
const prob = (shape: number[], seed: number) => rand(shape, 'float32', seed, 0.05, 0.95);
const signs = (shape: number[], seed: number) => ({ ...rand(shape, 'float32', seed, -1, 1), data: rand(shape, 'float32', seed, -1, 1).data.map((v) => (v < 0 ? -1 : 1)) });
const ints = (shape: number[], data: number[], dtype: 'int64' | 'int32' = 'int64') => nd(shape, data, dtype);
const HALVES = ['float64', 'float16', 'bfloat16'] as const;
const reductions = ['none', 'sum'].map((reduction) => ({ reduction }));

/** Samples every pointwise record shares: mean, 'none'/'sum', 0-dim, empty, strided; broadcast when allowed. */
function samples(mk: (shape: number[], seed: number) => (NDArray | null)[], broadcast: NDArray[] | null, extra: Attrs = {}) {
  const out = [
    { inputs: mk([3, 4], 1), attrs: { ...extra }, strided: true, note: 'mean' },
    ...reductions.map((rd, i) => ({ inputs: mk([2, 3], 2 + i), attrs: { ...extra, ...rd }, note: rd.reduction })),
    { inputs: mk([], 5), attrs: { ...extra, reduction: 'none' }, note: '0-dim' },
    { inputs: mk([0, 3], 6), attrs: { ...extra, reduction: 'sum' }, note: 'empty' },
  ];
  if (broadcast) out.push({ inputs: broadcast, attrs: { ...extra, reduction: 'none' }, strided: false, note: 'broadcast' });
  return out;
}
const badReduction = (op: string, inputs: In) => ({ inputs, attrs: { reduction: 'avg' }, error: new RegExp(`${op}: The value of 'reduction' in ${op} should be`) });

addRecords(
  {
    op: 'mse_loss',
    samples: samples((s, k) => [r(s, k), r(s, k + 50)], [r([3, 1], 7), r([4], 8)]),
    ref: pointwiseRef((_a, x, y) => (x - y) ** 2),
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('mse_loss', [r([2], 1), r([2], 2)]), { inputs: [r([2, 3], 1), r([4], 2)], error: /mse_loss: .*broadcast/ },
      { inputs: [ints([2], [1, 2]), ints([2], [1, 2])], error: /mse_loss: expected a floating-point input/ }],
  },
  {
    op: 'l1_loss',
    samples: samples((s, k) => [r(s, k), r(s, k + 50)], [r([3, 1], 7), r([4], 8)]),
    ref: pointwiseRef((_a, x, y) => Math.abs(x - y)),
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('l1_loss', [r([2], 1), r([2], 2)]), { inputs: [r([2], 1), rand([2], 'float64', 2)], error: /l1_loss: label dtype float64 differs/ }],
  },
  {
    op: 'smooth_l1_loss',
    samples: [...samples((s, k) => [r(s, k), r(s, k + 50)], null),
      { inputs: [r([4, 3], 9), r([4, 3], 10)], attrs: { delta: 0.5, reduction: 'none' }, note: 'delta 0.5' }],
    ref: pointwiseRef((a, x, y) => {
      const d = (a.delta as number | undefined) ?? 1, e = Math.abs(x - y);
      return e < d ? 0.5 * e * e : d * (e - 0.5 * d);
    }),
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('smooth_l1_loss', [r([2], 1), r([2], 2)]), { inputs: [r([2, 3], 1), r([3], 2)], error: /smooth_l1_loss: input shape \[2, 3\] must equal label shape \[3\]/ }],
  },
  {
    op: 'kl_div',
    samples: [...samples((s, k) => [r(s, k), rand(s, 'float32', k + 50, -0.2, 1)], null),
      { inputs: [r([4, 3], 11), prob([4, 3], 12)], attrs: { reduction: 'batchmean' }, note: 'batchmean' },
      { inputs: [r([4, 3], 13), r([4, 3], 14, -2, 0.5)], attrs: { log_target: true, reduction: 'none' }, note: 'log_target' }],
    ref: pointwiseRef((a, x, y) => (a.log_target ? Math.exp(y) * (y - x) : y > 0 ? y * (Math.log(y) - x) : 0)),
    dtypes: ['float64'], atol: 1e-5, rtol: 1e-4,
    bad: [{ inputs: [r([2], 1), r([2], 2)], attrs: { reduction: 'avg' }, error: /kl_div: The value of 'reduction' in kl_div should be 'sum', 'mean', 'batchmean' or 'none'/ },
      { inputs: [r([2, 3], 1), r([2, 1], 2)], error: /kl_div: input shape \[2, 3\] must equal label shape \[2, 1\]/ }],
  },
  {
    op: 'margin_ranking_loss',
    samples: [...samples((s, k) => [r(s, k), r(s, k + 50), signs(s, k + 99)], [r([3, 4], 7), r([4], 8), signs([3, 1], 9)]),
      { inputs: [r([5], 15), r([5], 16), signs([5], 17)], attrs: { margin: 0.5 }, note: 'margin' }],
    ref: pointwiseRef((a, x, o, l) => Math.max(0, -l * (x - o) + ((a.margin as number | undefined) ?? 0))),
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('margin_ranking_loss', [r([2], 1), r([2], 2), r([2], 3)]), { inputs: [r([2], 1), r([3], 2), r([2], 3)], error: /margin_ranking_loss: .*broadcast/ }],
  },
  {
    op: 'hinge_embedding_loss',
    samples: [...samples((s, k) => [r(s, k), signs(s, k + 50)], [r([3, 4], 7), signs([4], 8)]),
      { inputs: [r([6], 18), nd([6], [1, -1, 0, 1, -1, 2])], attrs: { margin: 0.5, reduction: 'none' }, note: 'margin, labels other than +-1 give 0' }],
    ref: pointwiseRef((a, x, l) => {
      const m = (a.margin as number | undefined) ?? 1;
      return l === 1 ? x : l === -1 ? Math.max(0, m - x) : 0;
    }),
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('hinge_embedding_loss', [r([2], 1), r([2], 2)])],
  },
  {
    op: 'binary_cross_entropy',
    samples: [...samples((s, k) => [prob(s, k), prob(s, k + 50), null], null),
      { inputs: [prob([3, 4], 19), prob([3, 4], 20), rand([4], 'float32', 21, 0.5, 2)], note: 'weight (broadcast)' },
      { inputs: [nd([3], [0, 1, 0.5]), nd([3], [1, 0, 1]), null], attrs: { reduction: 'none' }, note: 'saturated logs clip at -100' }],
    ref: pointwiseRef((_a, x, y, w = 1) => -w * (y * Math.max(Math.log(x), -100) + (1 - y) * Math.max(Math.log(1 - x), -100))),
    dtypes: ['float64'], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('binary_cross_entropy', [prob([2], 1), prob([2], 2), null]),
      { inputs: [nd([2], [0.5, 1.5]), prob([2], 2), null], error: /binary_cross_entropy: input is expected to be within the interval \[0, 1\], but received 1.5 at flat index 1/ },
      { inputs: [prob([2, 2], 1), prob([2], 2), null], error: /binary_cross_entropy: input shape \[2, 2\] must equal label shape \[2\]/ }],
  },
  {
    op: 'binary_cross_entropy_with_logits',
    samples: [...samples((s, k) => [r(s, k, -4, 4), prob(s, k + 50), null, null], null),
      { inputs: [r([3, 4], 22), prob([3, 4], 23), rand([4], 'float32', 24, 0.5, 2), null], note: 'weight' },
      { inputs: [r([3, 4], 25), prob([3, 4], 26), null, rand([4], 'float32', 27, 0.5, 3)], attrs: { reduction: 'none' }, note: 'pos_weight' },
      { inputs: [r([3, 4], 28), prob([3, 4], 29), rand([3, 1], 'float32', 30, 0.5, 2), rand([4], 'float32', 31, 0.5, 3)], attrs: { reduction: 'sum' }, note: 'both' },
      { inputs: [nd([3], [-200, 200, 30]), nd([3], [1, 0, 1]), null, null], attrs: { reduction: 'none' }, note: 'large logits stay finite' }],
    ref: (ins: In, a: Attrs) => {
      const [x, y, w, pw] = ins as (NDArray | null)[];
      const one = nd([], [1], x!.dtype);
      return reduce(mapN([x!, y!, w ?? one, pw ?? one], (xv, yv, wv, pv) => {
        const sp = Math.log1p(Math.exp(-Math.abs(xv))) + Math.max(-xv, 0);
        return wv * ((1 - yv) * xv + (1 + (pv - 1) * yv) * sp);
      }, x!.dtype), a);
    },
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [badReduction('binary_cross_entropy_with_logits', [r([2], 1), prob([2], 2), null, null]),
      { inputs: [r([2, 2], 1), prob([2], 2), null, null], error: /binary_cross_entropy_with_logits: logit shape \[2, 2\] must equal label shape \[2\]/ },
      { inputs: [r([2], 1), prob([2], 2), null, r([3], 3)], error: /binary_cross_entropy_with_logits: .*broadcast/ }],
  },
);

/** nll_loss: input [N, C, d...], label [N, d...]. */
function refNll(ins: In, a: Attrs): NDArray {
  const [x, label, w] = ins as [NDArray, NDArray, NDArray | null];
  const ii = (a.ignore_index as number | undefined) ?? -100, red = (a.reduction as string | undefined) ?? 'mean';
  const N = x.shape[0], C = x.shape[1], inner = size(x.shape.slice(2));
  const loss: number[] = [];
  let tw = 0;
  for (let n = 0; n < N; n++)
    for (let i = 0; i < inner; i++) {
      const y = label.data[n * inner + i];
      if (y === ii) { loss.push(0); continue; }
      const wy = w ? w.data[y] : 1;
      tw += wy;
      loss.push(-wy * x.data[(n * C + y) * inner + i]);
    }
  const dt = x.dtype;
  if (red === 'none') return { shape: label.shape, data: loss.map((v) => castValue(v, dt)), dtype: dt };
  const s = loss.reduce((p, v) => p + v, 0);
  return { shape: [], data: [castValue(red === 'sum' || tw === 0 ? s : s / tw, dt)], dtype: dt };
}

/** cosine_embedding_loss with Paddle's 1e-11 on each squared magnitude. */
function refCosine(ins: In, a: Attrs): NDArray {
  const [x1, x2, l] = ins as NDArray[];
  const M = x1.shape[x1.shape.length - 1], N = x1.shape.length === 2 ? x1.shape[0] : 1;
  const m = (a.margin as number | undefined) ?? 0;
  const loss: number[] = [];
  for (let n = 0; n < N; n++) {
    let p = 0, ma = 1e-11, mb = 1e-11;
    for (let k = 0; k < M; k++) { const u = x1.data[n * M + k], v = x2.data[n * M + k]; p += u * v; ma += u * u; mb += v * v; }
    const cos = p / Math.sqrt(ma * mb);
    loss.push(l.data[n] === 1 ? 1 - cos : l.data[n] === -1 ? Math.max(0, cos - m) : 0);
  }
  return reduce(nd([N], loss, x1.dtype), a);
}

addRecords(
  {
    op: 'nll_loss',
    samples: [
      { inputs: [r([4, 5], 1), ints([4], [0, 3, 4, 1]), null], strided: true, note: 'mean' },
      { inputs: [r([4, 5], 2), ints([4], [0, 3, 4, 1]), null], attrs: { reduction: 'none' } },
      { inputs: [r([4, 5], 3), ints([4], [0, 3, 4, 1], 'int32'), rand([5], 'float32', 4, 0.5, 2)], attrs: { reduction: 'sum' }, note: 'weight, int32 labels' },
      { inputs: [r([4, 5], 5), ints([4], [0, 3, 4, 3]), rand([5], 'float32', 6, 0.5, 2)], attrs: { ignore_index: 3 }, note: 'weighted mean, ignore_index' },
      { inputs: [r([2, 3, 2, 2], 7), ints([2, 2, 2], [0, 1, 2, 1, 2, 2, 0, -100]), null], attrs: { reduction: 'none' }, note: '[N, C, d1, d2]' },
      { inputs: [r([2, 3, 4], 8), ints([2, 4], [0, 1, 2, 1, 2, 2, 0, 0]), null], note: '[N, C, d1] mean' },
      { inputs: [r([3, 2], 9), ints([3], [-100, -100, -100]), null], note: 'every label ignored: mean is 0' },
      { inputs: [r([0, 3], 10), ints([0], []), null], attrs: { reduction: 'sum' }, note: 'empty' },
    ],
    ref: refNll,
    dtypes: [...HALVES], atol: 1e-5, rtol: 1e-4,
    bad: [
      badReduction('nll_loss', [r([2, 3], 1), ints([2], [0, 1]), null]),
      { inputs: [r([2, 3], 1), ints([2], [0, 3]), null], error: /nll_loss: label 3 \(at flat index 1\) is out of range \[0, 3\)/ },
      { inputs: [r([2, 3], 1), ints([3], [0, 1, 1]), null], error: /nll_loss: label shape \[3\] does not match input \[2, 3\]/ },
      { inputs: [r([3], 1), ints([3], [0, 1, 1]), null], error: /nll_loss: input should have at least 2 dims/ },
      { inputs: [r([2, 3], 1), ints([2], [0, 1]), r([4], 2)], error: /nll_loss: weight must have shape \[3\]/ },
      { inputs: [r([2, 3], 1), r([2], 2), null], error: /nll_loss: label must be int32 or int64, got float32/ },
    ],
  },
  {
    op: 'cosine_embedding_loss',
    samples: [
      { inputs: [r([4, 5], 1), r([4, 5], 2), ints([4], [1, -1, 1, -1])], strided: true, note: 'mean' },
      { inputs: [r([4, 5], 3), r([4, 5], 4), ints([4], [1, -1, -1, 1], 'int32')], attrs: { margin: 0.2, reduction: 'none' }, note: 'margin, none' },
      { inputs: [r([3, 2], 5), r([3, 2], 6), nd([3], [1, -1, -1], 'float32')], attrs: { reduction: 'sum' }, note: 'float labels' },
      { inputs: [r([5], 7), r([5], 8), ints([1], [-1])], attrs: { margin: -0.5, reduction: 'none' }, note: '1-D inputs' },
      { inputs: [r([0, 3], 9), r([0, 3], 10), ints([0], [])], attrs: { reduction: 'sum' }, note: 'empty' },
    ],
    ref: refCosine,
    dtypes: ['float64'], atol: 1e-5, rtol: 1e-4,
    bad: [
      badReduction('cosine_embedding_loss', [r([2, 3], 1), r([2, 3], 2), ints([2], [1, 1])]),
      { inputs: [r([2, 3], 1), r([2, 4], 2), ints([2], [1, 1])], error: /cosine_embedding_loss: the shape of input1 \[2, 3\] should be equal to input2 \[2, 4\]/ },
      { inputs: [r([2, 3], 1), r([2, 3], 2), ints([2, 1], [1, 1])], error: /cosine_embedding_loss: 1D target tensor expected/ },
      { inputs: [r([2, 3], 1), r([2, 3], 2), ints([3], [1, 1, 1])], error: /cosine_embedding_loss: label shape \[3\] does not match the 2 rows/ },
      { inputs: [r([2, 3], 1), r([2, 3], 2), ints([2], [1, 1])], attrs: { margin: 2 }, error: /cosine_embedding_loss: margin should lie in \[-1, 1\]/ },
    ],
  },
);

// ctc_loss record. The reference sums path probabilities with the forward recursion in plain
// probability space (not the kernel's log space) and differentiates it by central differences,
// so both the loss and warpctcgrad are checked against an independent formulation.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand } from '../ref.js';

type Attrs = Record<string, unknown>;
type In = (NDArray | NDArray[] | null)[];

/** -log p(label | scores) of sequence b: softmax per frame, then alpha over the blank-extended label. */
function seqLoss(x: number[], T: number, B: number, C: number, b: number, label: number[], Tb: number, blank: number): number {
  const ext = [blank];
  for (const v of label) ext.push(v, blank);
  const S = ext.length;
  const prob = (t: number, k: number) => {
    let z = 0;
    for (let j = 0; j < C; j++) z += Math.exp(x[(t * B + b) * C + j]);
    return Math.exp(x[(t * B + b) * C + k]) / z;
  };
  if (Tb === 0) return label.length === 0 ? 0 : Infinity;
  let a = new Array<number>(S).fill(0);
  a[0] = prob(0, ext[0]);
  if (S > 1) a[1] = prob(0, ext[1]);
  for (let t = 1; t < Tb; t++) {
    const n = new Array<number>(S).fill(0);
    for (let s = 0; s < S; s++) {
      let v = a[s] + (s >= 1 ? a[s - 1] : 0);
      if (s >= 2 && ext[s] !== blank && ext[s] !== ext[s - 2]) v += a[s - 2];
      n[s] = v * prob(t, ext[s]);
    }
    a = n;
  }
  const p = a[S - 1] + (S > 1 ? a[S - 2] : 0);
  return -Math.log(p);
}

function refCtc(ins: In, a: Attrs): NDArray[] {
  const [x, labels, il, ll] = ins as NDArray[];
  const [T, B, C] = x.shape;
  const L = labels.shape[1];
  const blank = (a.blank as number | undefined) ?? 0, red = (a.reduction as string | undefined) ?? 'mean';
  const data = x.data.map(Number);
  const lab = (b: number) => labels.data.slice(b * L, b * L + ll.data[b]);
  const losses: number[] = [];
  const grad = new Array<number>(data.length).fill(0);
  for (let b = 0; b < B; b++) {
    const f = () => seqLoss(data, T, B, C, b, lab(b), il.data[b], blank);
    const l = f();
    losses.push(l);
    if (!Number.isFinite(l)) continue;
    const sc = a.norm_by_times ? 1 / il.data[b] : 1;
    for (let t = 0; t < il.data[b]; t++)
      for (let k = 0; k < C; k++) {
        const i = (t * B + b) * C + k, v = data[i], eps = 1e-5;
        data[i] = v + eps; const up = f();
        data[i] = v - eps; const dn = f();
        data[i] = v;
        grad[i] = sc * (up - dn) / (2 * eps);
      }
  }
  const dt = x.dtype;
  const loss = red === 'none' ? nd([B], losses.map((v) => castValue(v, dt)), dt)
    : nd([], [castValue(red === 'sum' ? losses.reduce((p, v) => p + v, 0) : losses.reduce((p, v, b) => p + v / ll.data[b], 0) / B, dt)], dt);
  return [loss, nd(x.shape, grad.map((v) => castValue(v, dt)), dt)];
}

const ints = (shape: number[], data: number[], dtype: 'int64' | 'int32' = 'int64') => nd(shape, data, dtype);
const scores = (shape: number[], seed: number) => rand(shape, 'float32', seed, -2, 2);

addRecords({
  op: 'ctc_loss',
  samples: [
    { inputs: [scores([5, 2, 3], 1), ints([2, 3], [1, 2, 2, 1, 2, 2], 'int32'), ints([2], [5, 5]), ints([2], [3, 3])], strided: true, note: 'mean, repeated label' },
    { inputs: [scores([6, 3, 4], 2), ints([3, 3], [1, 2, 3, 3, 0, 0, 2, 2, 0], 'int32'), ints([3], [6, 4, 5]), ints([3], [3, 1, 2])], attrs: { reduction: 'none' }, note: 'ragged lengths, none' },
    { inputs: [scores([4, 2, 3], 3), ints([2, 2], [2, 1, 1, 0]), ints([2], [4, 3]), ints([2], [2, 0])], attrs: { reduction: 'sum', blank: 0 }, note: 'empty label, sum' },
    { inputs: [scores([4, 2, 4], 4), ints([2, 2], [0, 1, 2, 0], 'int32'), ints([2], [4, 4]), ints([2], [2, 1])], attrs: { blank: 3, norm_by_times: true }, note: 'blank 3, norm_by_times' },
    { inputs: [scores([3, 0, 3], 5), ints([0, 2], [], 'int32'), ints([0], []), ints([0], [])], attrs: { reduction: 'sum' }, note: 'empty batch' },
  ],
  ref: refCtc,
  dtypes: ['float64'],
  atol: 2e-4, rtol: 2e-4,
  bad: [
    { inputs: [scores([4, 2, 3], 1), ints([2, 2], [1, 0, 1, 1], 'int32'), ints([2], [4, 4]), ints([2], [2, 2])], error: /ctc_loss: labels\[0, 1\] = 0 must be a class in \[0, 3\) other than blank 0/ },
    { inputs: [scores([4, 2, 3], 1), ints([2, 2], [1, 2, 1, 1], 'int32'), ints([2], [4, 7]), ints([2], [2, 2])], error: /ctc_loss: input_lengths\[1\] = 7 is out of range \[0, 4\]/ },
    { inputs: [scores([4, 2, 3], 1), ints([2, 2], [1, 2, 1, 1], 'int32'), ints([2], [4, 4]), ints([2], [3, 2])], error: /ctc_loss: label_lengths\[0\] = 3 is out of range \[0, 2\]/ },
    { inputs: [scores([4, 2, 3], 1), ints([2, 2], [1, 2, 1, 1], 'int32'), ints([2], [4, 4]), ints([2], [2, 2])], attrs: { blank: 3 }, error: /ctc_loss: blank 3 is out of range \[0, 3\)/ },
    { inputs: [scores([4, 3], 1), ints([2, 2], [1, 2, 1, 1], 'int32'), ints([2], [4, 4]), ints([2], [2, 2])], error: /ctc_loss: log_probs must be 3-D/ },
    { inputs: [scores([4, 2, 3], 1), ints([3, 2], [1, 2, 1, 1, 1, 1], 'int32'), ints([2], [4, 4]), ints([2], [2, 2])], error: /ctc_loss: labels must have batch_size 2/ },
    { inputs: [scores([4, 2, 3], 1), scores([2, 2], 2), ints([2], [4, 4]), ints([2], [2, 2])], error: /ctc_loss: labels must be int32 or int64, got float32/ },
    { inputs: [scores([4, 2, 3], 1), ints([2, 2], [1, 2, 1, 1], 'int32'), ints([2], [4, 4]), ints([2], [2, 2])], attrs: { reduction: 'avg' }, error: /ctc_loss: The value of 'reduction' in ctc_loss should be/ },
  ],
});

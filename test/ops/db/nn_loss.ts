// cross_entropy, embedding and one_hot records.
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand, size } from '../ref.js';

type Attrs = Record<string, unknown>;
type In = (NDArray | NDArray[] | null)[];

/** Paddle 2.6 F.cross_entropy, written out directly. */
function refCrossEntropy(inputs: In, a: Attrs): NDArray {
  const [x, label, weight] = inputs as [NDArray, NDArray, NDArray | null];
  const rank = x.shape.length;
  const axis = ((a.axis as number | undefined) ?? -1) < 0 ? ((a.axis as number | undefined) ?? -1) + rank : (a.axis as number);
  const ls = (a.label_smoothing as number | undefined) ?? 0;
  if (ls > 0) return refSmoothed(x, label, weight, a, ls);
  const soft = Boolean(a.soft_label), useSm = a.use_softmax === undefined ? true : Boolean(a.use_softmax);
  const ii = (a.ignore_index as number | undefined) ?? -100, red = (a.reduction as string | undefined) ?? 'mean';
  const C = x.shape[axis], outer = size(x.shape.slice(0, axis)), inner = size(x.shape.slice(axis + 1));
  const loss: number[] = [], w: number[] = [], cnt: number[] = [];
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      const xs = (k: number) => x.data[(o * C + k) * inner + i];
      let m = -Infinity;
      for (let k = 0; k < C; k++) m = Math.max(m, xs(k));
      let s = 0;
      for (let k = 0; k < C; k++) s += Math.exp(xs(k) - m);
      const lse = m + Math.log(s);
      const logp = (k: number) => (useSm ? xs(k) - lse : Math.max(Math.log(xs(k)), -1e20));
      const smp = o * inner + i;
      if (!soft) {
        const y = label.data[smp];
        if (y === ii) { loss.push(0); w.push(0); cnt.push(0); continue; }
        const wy = weight ? weight.data[y] : 1;
        loss.push(-logp(y) * wy); w.push(wy); cnt.push(1);
      } else {
        let acc = 0, ws = 0, nz = 0;
        for (let k = 0; k < C; k++) {
          const l = label.data[(o * C + k) * inner + i];
          if (l !== 0) acc += l * logp(k);
          ws += weight ? l * weight.data[k] : 0;
          nz += l !== ii ? 1 : 0;
        }
        const wy = weight ? ws : 1;
        loss.push(-acc * wy); w.push(wy); cnt.push(nz);
      }
    }
  const dt = x.dtype;
  if (red === 'none') {
    const shape = soft ? x.shape.map((d, k) => (k === axis ? 1 : d)) : label.shape;
    return { shape, data: loss.map((v) => castValue(v, dt)), dtype: dt };
  }
  const total = loss.reduce((p, v) => p + v, 0);
  let val = total;
  if (red === 'mean') {
    if (ii >= 0) { const den = cnt.reduce((p, v, k) => p + (weight ? v * w[k] : v), 0); val = total / (den || 1); }
    else if (weight) { const den = w.reduce((p, v) => p + v, 0); val = total / (den || 1); }
    else val = total / loss.length;
  }
  return { shape: [], data: [castValue(val, dt)], dtype: dt };
}

/** label_smoothing: Paddle 2.6 one-hot encodes hard labels along the class axis, smooths them
 * to (1 - ls) L + ls / C and takes the soft-label path. */
function refSmoothed(x: NDArray, label: NDArray, weight: NDArray | null, a: Attrs, ls: number): NDArray {
  const rank = x.shape.length;
  const axis = ((a.axis as number | undefined) ?? -1) < 0 ? ((a.axis as number | undefined) ?? -1) + rank : (a.axis as number);
  const C = x.shape[axis], inner = size(x.shape.slice(axis + 1));
  let soft: NDArray;
  if (a.soft_label) soft = label;
  else {
    const data = new Array<number>(size(x.shape)).fill(0);
    label.data.forEach((y, smp) => { data[(Math.floor(smp / inner) * C + y) * inner + (smp % inner)] = 1; });
    soft = { shape: x.shape, data, dtype: x.dtype };
  }
  const smoothed = { ...soft, data: soft.data.map((v) => (1 - ls) * v + ls / C) };
  return refCrossEntropy([x, smoothed, weight], { ...a, soft_label: true, label_smoothing: 0 });
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -3, 3);
const ints = (shape: number[], data: number[], dtype: 'int64' | 'int32' = 'int64') => nd(shape, data, dtype);
/** Rows of a softmax-like distribution (positive, summing to 1) for soft labels / probabilities. */
function dist(shape: number[], seed: number): NDArray {
  const x = rand(shape, 'float32', seed, 0.1, 1);
  const C = shape[shape.length - 1];
  for (let i = 0; i < x.data.length; i += C) {
    const s = x.data.slice(i, i + C).reduce((p, v) => p + v, 0);
    for (let k = 0; k < C; k++) x.data[i + k] /= s;
  }
  return x;
}

addRecords({
  op: 'cross_entropy',
  samples: [
    { inputs: [r([4, 5], 1), ints([4], [0, 3, 4, 1]), null], strided: true, note: 'hard labels [N], mean' },
    { inputs: [r([4, 5], 2), ints([4, 1], [2, 2, 0, 4]), null], attrs: { reduction: 'none' }, note: 'labels [N, 1], none' },
    { inputs: [r([4, 5], 3), ints([4], [1, 0, 3, 3]), null], attrs: { reduction: 'none' }, note: 'labels [N], none' },
    { inputs: [r([4, 5], 4), ints([4], [1, 0, 3, 3]), null], attrs: { reduction: 'sum' } },
    { inputs: [r([4, 5], 5), ints([4], [1, 0, 3, 4]), rand([5], 'float32', 6, 0.1, 2)], note: 'weighted mean' },
    { inputs: [r([5, 3], 7), ints([5], [1, 0, 1, 2, 2]), null], attrs: { ignore_index: 1 }, note: 'ignore_index >= 0 mean' },
    { inputs: [r([5, 3], 8), ints([5], [1, 0, 1, 2, 2]), rand([3], 'float32', 9, 0.1, 2)], attrs: { ignore_index: 1 }, note: 'ignore_index + weight' },
    { inputs: [r([4, 3], 10), ints([4], [-100, 0, 2, -100]), null], note: 'default ignore_index: mean over all samples' },
    { inputs: [r([4, 3], 11), ints([4], [-100, 0, 2, 1]), null], attrs: { reduction: 'none' }, note: 'ignored sample is 0' },
    { inputs: [r([3, 4], 12), dist([3, 4], 13), null], attrs: { soft_label: true }, strided: true, note: 'soft labels mean' },
    { inputs: [r([3, 4], 14), dist([3, 4], 15), null], attrs: { soft_label: true, reduction: 'none' }, note: 'soft labels none' },
    { inputs: [r([3, 4], 16), dist([3, 4], 17), rand([4], 'float32', 18, 0.1, 2)], attrs: { soft_label: true }, note: 'soft labels weighted' },
    { inputs: [r([2, 3, 4], 19), ints([2, 4], [0, 1, 2, 1, 2, 2, 0, 0]), null], attrs: { axis: 1, reduction: 'none' }, note: 'class axis 1' },
    { inputs: [r([2, 3, 4], 20), ints([2, 1, 4], [0, 1, 2, 1, 2, 2, 0, 0]), null], attrs: { axis: 1 }, note: 'class axis 1, label with unit axis' },
    { inputs: [dist([4, 3], 21), ints([4], [0, 1, 2, 0]), null], attrs: { use_softmax: false }, note: 'use_softmax=False' },
    { inputs: [r([3, 4], 22), ints([3], [3, 0, 2], 'int32'), null], attrs: { reduction: 'sum' }, note: 'int32 labels' },
    { inputs: [nd([2, 3], [1000, 0, -1000, 50, 50, -50]), ints([2], [2, 0]), null], attrs: { reduction: 'none' }, note: 'large logits stay finite' },
    { inputs: [r([0, 3], 23), ints([0], []), null], attrs: { reduction: 'sum' }, note: 'empty batch' },
    { inputs: [r([4, 5], 24), ints([4], [0, 3, 4, 1]), null], attrs: { label_smoothing: 0.1 }, strided: true, note: 'label_smoothing' },
    { inputs: [r([4, 5], 25), ints([4, 1], [0, 3, 4, 1]), rand([5], 'float32', 26, 0.1, 2)], attrs: { label_smoothing: 0.2, reduction: 'none' }, note: 'label_smoothing, weight, none keeps the class axis' },
    { inputs: [r([2, 3, 4], 27), ints([2, 4], [0, 1, 2, 1, 2, 2, 0, 0]), null], attrs: { axis: 1, label_smoothing: 0.3, reduction: 'sum' }, note: 'label_smoothing, class axis 1' },
    { inputs: [r([3, 4], 28), dist([3, 4], 29), null], attrs: { soft_label: true, label_smoothing: 0.1 }, note: 'label_smoothing on soft labels' },
  ],
  ref: refCrossEntropy,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5, rtol: 1e-4,
  bad: [
    { inputs: [r([4, 5], 1), ints([4], [0, 7, 1, 1]), null], error: /cross_entropy: label 7 \(at flat index 1\) is out of range \[0, 5\)/ },
    { inputs: [r([4, 5], 1), ints([4], [0, -3, 1, 1]), null], error: /cross_entropy: label -3 .*out of range/ },
    { inputs: [r([4, 5], 1), ints([4], [0, 1, 1, 1]), null], attrs: { reduction: 'avg' }, error: /cross_entropy: The value of 'reduction'/ },
    { inputs: [r([4, 5], 1), ints([4, 2], [0, 1, 1, 1, 0, 0, 0, 0]), null], error: /cross_entropy: label shape \[4, 2\] does not match input \[4, 5\]/ },
    { inputs: [r([4, 5], 1), ints([4, 1, 1], [0, 1, 1, 1]), null], error: /cross_entropy: Expected input_dims - 1 = label_dims or input_dims == label_dims/ },
    { inputs: [r([4, 5], 1), r([4, 4], 2), null], attrs: { soft_label: true }, error: /cross_entropy: soft labels must have the input's shape/ },
    { inputs: [r([4, 5], 1), r([4, 5], 2), null], attrs: { soft_label: true, ignore_index: 2 }, error: /cross_entropy: When soft_label == True/ },
    { inputs: [r([4, 5], 1), ints([4], [0, 1, 1, 1]), r([4], 3)], error: /cross_entropy: input's class_dimension\(5\) must equal to weight's class_dimension\(4\)/ },
    { inputs: [r([4, 5], 1), r([4], 2), null], error: /cross_entropy: hard labels must be int32 or int64, got float32/ },
    { inputs: [r([4, 5], 1), ints([4], [0, 1, 1, 1]), null], attrs: { label_smoothing: 1.5 }, error: /cross_entropy: label_smoothing must be a number in \[0, 1\], got 1.5/ },
    { inputs: [r([4, 5], 1), ints([4], [0, 1, 1, 1]), null], attrs: { label_smoothing: 0.1, ignore_index: 1 }, error: /cross_entropy: label_smoothing 0.1 makes the labels soft/ },
    { inputs: [r([4, 5], 1), ints([4], [0, -100, 1, 1]), null], attrs: { label_smoothing: 0.1 }, error: /cross_entropy: label -100 \(at flat index 1\) is out of range/ },
  ],
});

function refEmbedding(inputs: In, a: Attrs): NDArray {
  const [ids, w] = inputs as [NDArray, NDArray];
  const [V, D] = w.shape;
  const p = a.padding_idx as number | undefined | null;
  const pad = p === undefined || p === null ? -1 : p < 0 ? p + V : p;
  const data: number[] = [];
  for (const id of ids.data) for (let k = 0; k < D; k++) data.push(id === pad ? 0 : w.data[id * D + k]);
  return { shape: [...ids.shape, D], data, dtype: w.dtype };
}

function refOneHot(inputs: In, a: Attrs): NDArray {
  const x = inputs[0] as NDArray;
  const n = a.num_classes as number;
  const data: number[] = [];
  for (const v of x.data) for (let k = 0; k < n; k++) data.push(k === v ? 1 : 0);
  return { shape: [...x.shape, n], data, dtype: 'float32' };
}

const table = r([10, 4], 30);
addRecords({
  op: 'embedding',
  samples: [
    { inputs: [ints([2, 3], [1, 0, 9, 4, 4, 2]), table], strided: true },
    { inputs: [ints([2, 3], [1, 0, 9, 4, 0, 2]), table], attrs: { padding_idx: 0 }, note: 'padding_idx' },
    { inputs: [ints([3], [9, 8, 1]), table], attrs: { padding_idx: -1 }, note: 'negative padding_idx' },
    { inputs: [ints([4], [3, 3, 7, 0], 'int32'), table], attrs: { sparse: true }, note: 'int32 ids' },
    { inputs: [ints([], [5]), table], note: '0-dim ids' },
    { inputs: [ints([0, 2], []), table], note: 'empty ids' },
  ],
  ref: refEmbedding,
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [ints([4], [1, 2, 12, 0]), table], error: /embedding: index 12 \(at flat position 2\) is out of range \[0, 10\)/ },
    { inputs: [ints([2], [1, -1]), table], error: /embedding: index -1 .*out of range/ },
    { inputs: [ints([2], [1, 2]), table], attrs: { padding_idx: 10 }, error: /embedding: padding_idx must be within \[-10, 10\)/ },
    { inputs: [r([2], 1), table], error: /embedding: ids must be int32 or int64, got float32/ },
    { inputs: [ints([2], [1, 2]), r([10], 1)], error: /embedding: weight must be 2-D/ },
  ],
}, {
  op: 'one_hot',
  samples: [
    { inputs: [ints([4], [0, 3, 4, 1])], attrs: { num_classes: 5 }, strided: true },
    { inputs: [ints([2, 3], [2, 0, 1, 1, 2, 0], 'int32')], attrs: { num_classes: 3 } },
    { inputs: [ints([0], [])], attrs: { num_classes: 4 }, note: 'empty' },
  ],
  ref: refOneHot,
  bad: [
    { inputs: [ints([3], [0, 5, 1])], attrs: { num_classes: 5 }, error: /one_hot: index 5 \(at flat position 1\) is out of range \[0, 5\)/ },
    { inputs: [ints([3], [0, 1, 1])], attrs: { num_classes: -2 }, error: /one_hot: num_classes must be a non-negative integer/ },
    { inputs: [r([3], 1)], attrs: { num_classes: 3 }, error: /one_hot: x must be int32 or int64/ },
  ],
});

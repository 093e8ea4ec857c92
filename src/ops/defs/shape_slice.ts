// slice and strided_slice with Paddle's bound rules (shape_common.ts). slice is always a view;
// strided_slice is a view for positive strides and a native copy (shape_copy.cc) when any stride
// is negative, since storage views never walk backwards.
import { registerOp } from '../registry.js';
import { type Dim, ShapeError } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';
import { axisList, intList, metaOf, sliceBounds, sliceLen, stridedBounds, stridedLen } from './shape_common.js';

interface SliceArgs { axes: number[]; starts: number[]; ends: number[] }

// Paddle's Python slice() clamps axes into the rank (negative ones from the end, at least 0).
function sliceArgs(x: TensorMeta, a: Attrs): SliceArgs {
  const rank = x.shape.length;
  if (rank === 0) throw new ShapeError('slice: input is a 0-D tensor; there is no axis to slice');
  const axes = intList('slice', 'axes', a.axes, false).map((ax) => (ax < 0 ? Math.max(0, ax + rank) : Math.min(rank - 1, ax)));
  if (axes.length === 0) throw new ShapeError('slice: axes must not be empty');
  const starts = intList('slice', 'starts', a.starts, false), ends = intList('slice', 'ends', a.ends, false);
  if (starts.length !== axes.length || ends.length !== axes.length)
    throw new ShapeError(`slice: axes, starts and ends must have the same length, got ${axes.length}, ${starts.length} and ${ends.length}`);
  return { axes, starts, ends };
}

/** slice(input, axes, starts, ends): out-of-range starts/ends clamp to the dim, as in Paddle. */
export const slice = registerOp({
  name: 'slice',
  inputs: [{ name: 'input' }],
  attrs: [{ name: 'axes', type: 'int[]' }, { name: 'starts', type: 'int[]' }, { name: 'ends', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => {
    const { axes, starts, ends } = sliceArgs(x, a);
    const shape: Dim[] = [...x.shape];
    axes.forEach((ax, i) => { shape[ax] = sliceLen('slice', x.shape[ax], starts[i], ends[i], ax); });
    return [metaOf(x, shape)];
  },
  view: (x, a) => {
    const { axes, starts, ends } = sliceArgs(x, a);
    // A repeated axis slices the original dim again and the last entry wins, as in Paddle's kernel.
    const begin = new Map<number, number>();
    const shape = [...x.shape];
    axes.forEach((ax, i) => {
      const [s, e] = sliceBounds('slice', x.shape[ax], starts[i], ends[i], ax);
      begin.set(ax, s);
      shape[ax] = e - s;
    });
    let offset = x.offset;
    for (const [ax, s] of begin) offset += s * x.strides[ax];
    return { shape, strides: [...x.strides], offset };
  },
  gradReads: {},
  // g padded with zeros back to x's shape (a repeated axis: the last entry wins, as forward).
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const { axes, starts, ends } = sliceArgs(k.o.meta(x!), attrs);
    const pads = new Array<number>(2 * xs.length).fill(0);
    axes.forEach((ax, i) => {
      const [s, e] = sliceBounds('slice', xs[ax], starts[i], ends[i], ax);
      pads[2 * ax] = s;
      pads[2 * ax + 1] = xs[ax] - e;
    });
    return [pads.some((p) => p !== 0) ? k.op('pad', [g!], { pad: pads }) : g];
  },
});

interface StridedArgs extends SliceArgs { strides: number[] }

function stridedArgs(x: TensorMeta, a: Attrs): StridedArgs {
  const op = 'strided_slice';
  const rank = x.shape.length;
  const axes = axisList(op, intList(op, 'axes', a.axes, false), rank, true);
  if (rank === 0 && axes.length) throw new ShapeError(`${op}: input is a 0-D tensor; there is no axis to slice`);
  const starts = intList(op, 'starts', a.starts, false), ends = intList(op, 'ends', a.ends, false), strides = intList(op, 'strides', a.strides, false);
  if (starts.length !== axes.length || ends.length !== axes.length || strides.length !== axes.length)
    throw new ShapeError(`${op}: axes, starts, ends and strides must have the same length, got ${axes.length}, ${starts.length}, ${ends.length} and ${strides.length}`);
  return { axes, starts, ends, strides };
}

/** Per input dim: [first index, step, count] (untouched dims: [0, 1, size]). */
function stridedPlan(x: { readonly shape: readonly number[] }, a: Attrs): [number, number, number][] {
  const { axes, starts, ends, strides } = stridedArgs(x as TensorMeta, a);
  const plan = x.shape.map((d): [number, number, number] => [0, 1, d]);
  axes.forEach((ax, i) => {
    const { first, count } = stridedBounds('strided_slice', x.shape[ax], starts[i], ends[i], strides[i], ax);
    plan[ax] = [first, strides[i], count];
  });
  return plan;
}

/** strided_slice(x, axes, starts, ends, strides). Kernel attrs: [first, step] per input dim. */
export const strided_slice = registerOp({
  name: 'strided_slice',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axes', type: 'int[]' }, { name: 'starts', type: 'int[]' }, { name: 'ends', type: 'int[]' }, { name: 'strides', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => {
    const { axes, starts, ends, strides } = stridedArgs(x, a);
    const shape: Dim[] = [...x.shape];
    axes.forEach((ax, i) => { shape[ax] = stridedLen('strided_slice', x.shape[ax], starts[i], ends[i], strides[i], ax); });
    return [metaOf(x, shape)];
  },
  encode: (a, [x]) => stridedPlan(x as { shape: readonly number[] }, a).flatMap(([first, step, count]) => [count > 0 ? first : 0, step]),
  view: (x, a) => {
    const plan = stridedPlan(x, a);
    if (plan.some(([, step, count]) => step < 0 && count > 1)) return null;
    let offset = x.offset;
    const shape: number[] = [], strides: number[] = [];
    plan.forEach(([first, step, count], d) => {
      if (count > 0) offset += first * x.strides[d];
      shape.push(count);
      strides.push(Math.abs(step) * x.strides[d]);
    });
    return { shape, strides, offset };
  },
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    let t: typeof g = g!;
    stridedPlan({ shape: xs }, attrs).forEach(([first, step, count], d) => {
      if (first === 0 && step === 1 && count === xs[d]) return;
      t = k.scatterStrided(t!, d, xs[d], first, step);
    });
    return [t];
  },
});

// set_value_with_tensor (Paddle's name): x with `values` written into a strided region, the op
// behind Tensor.__setitem__. Internal (no public name); it is `inplace`, so the inplace path
// (dispatch.ts runOpInplace) runs it with x's own handle as the output. Native:
// native/kernels/set_value.cc.
//
// Attributes follow Paddle's signature: starts, ends, steps, axes (one entry per sliced axis),
// decrease_axes (axes indexed by an integer: they select one element and are absent from the
// assigned shape) and none_axes (x dims before which the index had a None). Bounds follow Python
// slice rules: negative starts/ends count from the end, then clamp ([0, n] for positive steps,
// [-1, n - 1] for negative ones, so "through index 0" is any end <= -n - 1).
import { registerOp } from '../registry.js';
import { type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import { axisList, intList } from './shape_common.js';
import { kit } from '../grad_kit.js';

const OP = 'set_value_with_tensor';

/** Python's slice normalisation on a dim of size n: the first index and the element count. */
export function sliceRegion(n: number, start: number, end: number, step: number, axis: number): { first: number; count: number } {
  if (step === 0) throw new ShapeError(`${OP}: step on axis ${axis} must not be 0`);
  let s = start < 0 ? start + n : start, e = end < 0 ? end + n : end;
  if (step > 0) {
    s = Math.min(Math.max(s, 0), n); e = Math.min(Math.max(e, 0), n);
    return { first: s, count: e > s ? Math.ceil((e - s) / step) : 0 };
  }
  s = Math.min(Math.max(s, -1), n - 1); e = Math.min(Math.max(e, -1), n - 1);
  return { first: s, count: s > e ? Math.ceil((s - e) / -step) : 0 };
}

interface Plan { axes: number[]; starts: number[]; ends: number[]; steps: number[]; decrease: Set<number>; none: number[] }

function planOf(x: TensorMeta, a: Attrs): Plan {
  const rank = x.shape.length;
  const axes = axisList(OP, intList(OP, 'axes', a.axes, false), rank);
  const starts = intList(OP, 'starts', a.starts, false), ends = intList(OP, 'ends', a.ends, false), steps = intList(OP, 'steps', a.steps, false);
  if (starts.length !== axes.length || ends.length !== axes.length || steps.length !== axes.length)
    throw new ShapeError(`${OP}: axes, starts, ends and steps must have the same length, got ${axes.length}, ${starts.length}, ${ends.length} and ${steps.length}`);
  const decrease = new Set(axisList(OP, intList(OP, 'decrease_axes', a.decrease_axes, false), rank));
  for (const d of decrease) if (!axes.includes(d)) throw new ShapeError(`${OP}: decrease axis ${d} is not one of the sliced axes ${JSON.stringify(axes)}`);
  const none = intList(OP, 'none_axes', a.none_axes, false);
  for (const p of none) if (p < 0 || p > rank) throw new ShapeError(`${OP}: none axis ${p} is out of range for x ${shapeStr(x.shape)}`);
  steps.forEach((s, i) => { if (s === 0) throw new ShapeError(`${OP}: step on axis ${axes[i]} must not be 0`); });
  return { axes, starts, ends, steps, decrease, none: [...none].sort((p, q) => p - q) };
}

/** Per x dim: [first, step, count] on static dims, null count on a symbolic dim the slice changes. */
function regionOf(x: TensorMeta, p: Plan): { first: number; step: number; count: Dim | null }[] {
  const out = x.shape.map((d) => ({ first: 0, step: 1, count: d as Dim | null }));
  p.axes.forEach((ax, i) => {
    const n = x.shape[ax];
    if (typeof n !== 'number') { out[ax] = { first: 0, step: 1, count: null }; return; }
    const { first, count } = sliceRegion(n, p.starts[i], p.ends[i], p.steps[i], ax);
    if (p.decrease.has(ax) && count !== 1)
      throw new ShapeError(`${OP}: decreased axis ${ax} (size ${n}) must select one element, got ${count} (start ${p.starts[i]}, end ${p.ends[i]}, step ${p.steps[i]})`);
    out[ax] = { first: count > 0 ? first : 0, step: p.steps[i], count };
  });
  return out;
}

/** The shape values broadcast to: non-decreased region dims with a 1 at each None. */
function assignShape(x: TensorMeta, p: Plan): (Dim | null)[] {
  const region = regionOf(x, p);
  const out: (Dim | null)[] = [];
  let k = 0;
  for (let d = 0; d <= region.length; d++) {
    while (k < p.none.length && p.none[k] === d) { out.push(1); k++; }
    if (d < region.length && !p.decrease.has(d)) out.push(region[d].count);
  }
  return out;
}

export const set_value_with_tensor = registerOp({
  name: OP,
  inputs: [{ name: 'x' }, { name: 'values' }],
  attrs: [
    { name: 'starts', type: 'int[]' }, { name: 'ends', type: 'int[]' }, { name: 'steps', type: 'int[]' }, { name: 'axes', type: 'int[]' },
    { name: 'decrease_axes', type: 'int[]', default: [] }, { name: 'none_axes', type: 'int[]', default: [] },
  ],
  outputs: ['out'],
  infer: ([x, v], a) => {
    if (v.dtype !== x.dtype) throw new TypeError(`${OP}: values dtype ${v.dtype} differs from x dtype ${x.dtype}`);
    const target = assignShape(x, planOf(x, a));
    // values align right against the assigned shape; extra leading dims must be 1.
    const bad = (): ShapeError => new ShapeError(`${OP}: values of shape ${shapeStr(v.shape)} cannot be broadcast to the assigned shape ` +
      `[${target.map((d) => (d === null ? '?' : typeof d === 'number' ? d : d.expr)).join(', ')}] of x ${shapeStr(x.shape)}`);
    for (let k = 0; k < v.shape.length; k++) {
      const vd = v.shape[k], j = target.length - v.shape.length + k;
      if (typeof vd !== 'number' || vd === 1) continue;
      if (j < 0) throw bad();
      const td = target[j];
      if (td === null || typeof td !== 'number') continue;  // symbolic: checked by the kernel at run time
      if (vd !== td) throw bad();
    }
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  // [first, step, count, decreased] per x dim, then [n_none, none positions...] (set_value.cc).
  encode: (a, [x]) => {
    const p = planOf(x, a);
    const out: number[] = [];
    regionOf(x, p).forEach((g, d) => {
      if (typeof g.count !== 'number') throw new ShapeError(`${OP}: x shape ${shapeStr(x.shape)} must be concrete to run`);
      out.push(g.first, g.step, g.count, p.decrease.has(d) ? 1 : 0);
    });
    out.push(p.none.length, ...p.none);
    return out;
  },
  inplace: true,
  writesViews: true,
  api: { names: [], methods: [] },
  // x's gradient is g with the written region zeroed (this op writing 0 into g); values' is that
  // region of g, shaped like the assigned shape and summed back over broadcasting.
  gradReads: {},
  grad: ({ inputs: [x, v], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const xm: TensorMeta = { dtype: k.dtype(x!), shape: k.shape(x!) };
    const p = planOf(xm, attrs);
    const dx = needsGrad[0] ? k.op(OP, [g!, k.scalar(0, g!)], attrs) : null;
    if (!needsGrad[1]) return [dx, null];
    const region = regionOf(xm, p) as { first: number; step: number; count: number }[];
    const vs = k.shape(v!);
    if (region.some((r) => r.count === 0)) return [dx, k.zerosOf(v!)];
    let t: typeof g = g;
    region.forEach(({ first, step, count }, d) => {
      if (first === 0 && step === 1 && count === xm.shape[d]) return;
      // The region in ascending order, flipped back for a negative step.
      const n = Math.abs(step), lo = step > 0 ? first : first + (count - 1) * step;
      t = k.op('strided_slice', [t!], { axes: [d], starts: [lo], ends: [lo + (count - 1) * n + 1], strides: [n] });
      if (step < 0) t = k.op('flip', [t], { axis: [d] });
    });
    // Dropping decreased axes and adding None axes only moves 1s around: a reshape.
    const target = assignShape(xm, p) as number[];
    t = k.reshape(t!, target);
    const trailing = vs.slice(Math.max(0, vs.length - target.length));
    return [dx, k.reshape(k.sumTo(t, trailing), vs)];
  },
});

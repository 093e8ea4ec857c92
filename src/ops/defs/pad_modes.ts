// pad's reflect / replicate / circular modes (the op itself is in shape_join.ts). Each mode maps
// every output position along a dim to one input position, independently per dim, so the
// kernel (native/kernels/shape_more.cc pad_modes) gathers through per-dim maps and the gradient
// adds g back through the same maps, one padded dim at a time (index_add, so it is differentiable
// again).
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import type { GradKit } from '../grad_kit.js';
import type { TensorMeta } from '../types.js';

/** Paddle's limits: reflect needs paddings below the dim size; no mode but constant can pad an empty dim. */
export function checkEdgePads(x: TensorMeta, pairs: [number, number][], mode: string): void {
  pairs.forEach(([b, a], d) => {
    if (b === 0 && a === 0) return;
    const n = x.shape[d];
    if (typeof n !== 'number') return;  // symbolic: the kernel checks when the size is known
    if (n === 0) throw new ShapeError(`pad: mode '${mode}' cannot pad axis ${d} of size 0 of x ${shapeStr(x.shape)}`);
    if (mode === 'reflect' && (b >= n || a >= n))
      throw new ShapeError(`pad: mode 'reflect' needs paddings smaller than the padded dim: axis ${d} of x ${shapeStr(x.shape)} has size ${n}, paddings ${b}, ${a}`);
  });
}

/** The input position each output position of a dim of size n reads. */
export function edgeMap(n: number, before: number, after: number, mode: string): number[] {
  return Array.from({ length: n + before + after }, (_, i) => {
    const j = i - before;
    if (mode === 'reflect') return j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
    if (mode === 'replicate') return Math.min(Math.max(j, 0), n - 1);
    return ((j % n) + n) % n;
  });
}

/** An int64 tensor of `values`, built from public ops: runs of step -1, 0 or +1 become arange/full pieces. */
function indexTensor<T>(k: GradKit<T>, values: number[]): T {
  const pieces: T[] = [];
  for (let i = 0; i < values.length;) {
    const step = i + 1 < values.length ? values[i + 1] - values[i] : 1;
    const s = Math.abs(step) <= 1 ? step : 1;
    let j = i + 1;
    while (j < values.length && values[j] - values[j - 1] === s) j++;
    const len = j - i;
    pieces.push(s === 0 ? k.full([len], values[i], 'int64')
      : k.op('arange', [], { start: values[i], end: values[i] + s * len, step: s, dtype: 'int64' }));
    i = j;
  }
  return pieces.length === 1 ? pieces[0] : k.op('concat', pieces, { axis: 0 });
}

export function padEdgeGrad<T>(k: GradKit<T>, g: T, xs: number[], pairs: [number, number][], mode: string): T {
  let cur = g;
  pairs.forEach(([b, a], d) => {
    if (b === 0 && a === 0) return;
    const shape = k.shape(cur).map((s, i) => (i === d ? xs[d] : s));
    const index = indexTensor(k, edgeMap(xs[d], b, a, mode));
    cur = k.op('index_add', [k.full(shape, 0, k.dtype(g)), index, cur], { axis: d });
  });
  return cur;
}

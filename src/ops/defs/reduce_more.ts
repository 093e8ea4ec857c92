// More axis reductions (Paddle 2.6 signatures): amax, amin, count_nonzero.
// Native: native/kernels/reduce_more.cc (count_nonzero); amax/amin run max/min's kernels. Attribute layout as the other reductions
// (native/kernels/reduce.h): [n_axes, axis..., keepdim].
//  - amax/amin(x, axis=None, keepdim=False): the values of max/min (Paddle differs only in how
//    gradients split between equal extremes); every dtype but bool; NaN propagates; an empty
//    reduction raises.
//  - count_nonzero(x, axis=None, keepdim=False): int64 count of nonzero elements, any dtype.
import { registerOp } from '../registry.js';
import { reduceAxes, reducedShape } from '../infer.js';
import { isStatic, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { AttrSpec, Attrs, OpDef } from '../types.js';
import { REDUCE_GRADS } from './reduce_grad.js';

const AXIS: AttrSpec = { name: 'axis', type: 'int[]', default: null };
const KEEPDIM: AttrSpec = { name: 'keepdim', type: 'bool', default: false };

function axesOf(op: string, axis: Attrs[string], rank: number): number[] {
  const ok = axis === null || Number.isInteger(axis) || (Array.isArray(axis) && axis.every((a) => Number.isInteger(a)));
  if (!ok) throw new TypeError(`${op}: axis must be an int, a list of ints or None, got ${JSON.stringify(axis)}`);
  return reduceAxes(op, axis, rank).filter((a) => a < rank);
}

function reduction(name: string, kind: 'extreme' | 'count'): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [AXIS, KEEPDIM],
    outputs: ['out'],
    infer: ([x], a) => {
      if (kind === 'extreme' && x.dtype === 'bool') throw new TypeError(`${name}: bool input is not supported (dtype bool)`);
      const axes = axesOf(name, a.axis, x.shape.length);
      if (kind === 'extreme' && isStatic(x.shape)) {
        const shape = x.shape as number[];
        const red = axes.reduce((n, ax) => n * shape[ax], 1);
        const out = shape.reduce((n, d, i) => (axes.includes(i) ? n : n * d), 1);
        if (red === 0 && out > 0) throw new ShapeError(`${name}: cannot reduce over an empty dimension (input shape ${shapeStr(x.shape)}, axes [${axes.join(', ')}])`);
      }
      return [{ dtype: kind === 'count' ? 'int64' : x.dtype, shape: reducedShape(x.shape, axes, a.keepdim as boolean) }];
    },
    encode: (a, [x]) => {
      const axes = axesOf(name, a.axis, x.shape.length);
      return [axes.length, ...axes, a.keepdim ? 1 : 0];
    },
    // amax/amin values are max/min's: same kernel (native/kernels/reduce.cc).
    kernel: kind === 'extreme' ? name.replace(/^a/, '') : undefined,
    ...REDUCE_GRADS[name],  // reduce_grad.ts (amax, amin)
  });
}

export const amax = reduction('amax', 'extreme');
export const amin = reduction('amin', 'extreme');
export const count_nonzero = reduction('count_nonzero', 'count');

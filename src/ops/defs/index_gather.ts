// Gathering along one axis by an integer index tensor. Native: native/kernels/index_gather.cc
// (attrs: [axis]); every index is checked against the axis size before anything is written, and
// negative indices are errors, as in Paddle's CPU kernels.
import { registerOp } from '../registry.js';
import { type Dim, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import type { OpDef } from '../types.js';
import { kit } from '../grad_kit.js';
import { intAttr, metaOf } from './shape_common.js';

function checkIndex(op: string, x: TensorMeta, index: TensorMeta, ranks: number[]): Dim | null {
  if (index.dtype !== 'int32' && index.dtype !== 'int64') throw new TypeError(`${op}: index must be int32 or int64, got ${index.dtype}`);
  if (x.shape.length === 0) throw new ShapeError(`${op}: x must have at least one dim, got a 0-D tensor`);
  const r = index.shape.length;
  if (!ranks.includes(r) || (r === 2 && index.shape[1] !== 1))
    throw new ShapeError(`${op}: index must be ${ranks.includes(0) ? '0-D, ' : ''}1-D or of shape [N, 1], got shape ${shapeStr(index.shape)}`);
  return r === 0 ? null : index.shape[0];
}

function gatherAxis(op: string, x: TensorMeta, a: Attrs): number {
  return normAxis(a.axis === null ? 0 : intAttr(op, 'axis', a.axis), x.shape.length, op);
}

function gathered(op: string, ranks: number[]) {
  return ([x, index]: readonly TensorMeta[], a: Attrs): TensorMeta[] => {
    const n = checkIndex(op, x, index, ranks);
    const axis = gatherAxis(op, x, a);
    const shape: Dim[] = [...x.shape];
    if (n === null) shape.splice(axis, 1); else shape[axis] = n;
    return [metaOf(x, shape)];
  };
}

/** The gradient of gathering along `axis`: g's slices added back at their indices (index_add). */
function gatherGrad(op: string): OpDef['grad'] {
  return ({ inputs: [x, index], outGrads: [g0], attrs }, ops) => {
    const k = kit(ops);
    const axis = gatherAxis(op, ops.meta(x!), attrs);
    const zeroD = k.rank(index!) === 0;
    const g = zeroD ? k.op('unsqueeze', [g0], { axis: [axis] }) : g0!;
    const idx = k.reshape(index!, [zeroD ? 1 : k.shape(index!)[0]]);
    return [k.op('index_add', [k.zerosOf(x!), idx, g], { axis }), null];
  };
}

/** gather(x, index, axis=None): a 0-D index drops the axis. */
export const gather = registerOp({
  name: 'gather',
  inputs: [{ name: 'x' }, { name: 'index' }],
  attrs: [{ name: 'axis', type: 'int', default: null }],
  outputs: ['out'],
  infer: gathered('gather', [0, 1, 2]),
  encode: (a, [x]) => [gatherAxis('gather', x, a)],
  grad: gatherGrad('gather'),
  gradReads: { inputs: [1] },
});

/** index_select(x, index, axis=0). */
export const index_select = registerOp({
  name: 'index_select',
  inputs: [{ name: 'x' }, { name: 'index' }],
  attrs: [{ name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: gathered('index_select', [1, 2]),
  encode: (a, [x]) => [gatherAxis('index_select', x, a)],
  grad: gatherGrad('index_select'),
  gradReads: { inputs: [1] },
});

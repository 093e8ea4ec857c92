// index_add (Paddle's op: inputs x, index, add_value; attribute axis): out = x with value's
// slices added at `index` along axis (repeated indices accumulate). Native:
// native/kernels/index_add_grad.cc. It is the scatter-add the gradients of gather, index_select
// and embedding are written with. Internal for now: paddle.index_add's public argument order
// (x, index, axis, value) is not inputs-then-attributes and needs a hand-written binding.
import { normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import { kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';
import { intAttr } from './shape_common.js';

const axisOf = (x: TensorMeta, a: Attrs) => normAxis(intAttr('index_add', 'axis', a.axis), x.shape.length, 'index_add');

export const index_add = registerOp({
  name: 'index_add',
  inputs: [{ name: 'x' }, { name: 'index' }, { name: 'add_value' }],
  attrs: [{ name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: ([x, index, value], a) => {
    if (x.shape.length === 0) throw new ShapeError('index_add: x must have at least one dim, got a 0-D tensor');
    const axis = axisOf(x, a);
    if (index.dtype !== 'int32' && index.dtype !== 'int64') throw new TypeError(`index_add: index must be int32 or int64, got ${index.dtype}`);
    const r = index.shape.length;
    if (r < 1 || r > 2 || (r === 2 && index.shape[1] !== 1)) throw new ShapeError(`index_add: index must be 1-D or of shape [N, 1], got shape ${shapeStr(index.shape)}`);
    if (value.dtype !== x.dtype) throw new TypeError(`index_add: add_value dtype ${value.dtype} differs from x dtype ${x.dtype}`);
    const ok = value.shape.length === x.shape.length && value.shape.every((d, i) => (i === axis ? d === index.shape[0] : d === x.shape[i]));
    if (!ok) throw new ShapeError(`index_add: add_value shape ${shapeStr(value.shape)} must be x's ${shapeStr(x.shape)} with axis ${axis} of size ${String(index.shape[0])}`);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  encode: (a, [x]) => [axisOf(x, a)],
  gradReads: { inputs: [1] },
  // d x = g; d add_value = g gathered at index.
  grad: ({ inputs: [x, index], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const axis = axisOf(ops.meta(x!), attrs);
    return [g, null, k.op('index_select', [g, k.reshape(index!, [k.shape(index!)[0]])], { axis })];
  },
  api: { names: [], methods: [] },
});

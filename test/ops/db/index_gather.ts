// Records of gather and index_select.
import { addRecords } from '../op_db.js';
import { nd, rand } from '../ref.js';
import { arr, at, build, normAx } from './shape_util.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;

function gatherRef(x: unknown, index: unknown, axis: number | null | undefined) {
  const X = arr(x), I = arr(index);
  const ax = normAx(axis ?? 0, X.shape.length);
  const shape = [...X.shape];
  if (I.shape.length === 0) shape.splice(ax, 1); else shape[ax] = I.data.length;
  return build(shape, X.dtype, (idx) => {
    const src = [...idx];
    if (I.shape.length === 0) src.splice(ax, 0, I.data[0]); else src[ax] = I.data[idx[ax]];
    return at(X, src);
  });
}

const idx = (data: number[], dtype: 'int32' | 'int64' = 'int64', shape = [data.length]) => nd(shape, data, dtype);

addRecords({
  op: 'gather',
  samples: [
    { inputs: [rand([4, 3]), idx([3, 0, 3])], strided: true },
    { inputs: [rand([2, 4, 3]), idx([1, 2], 'int32')], attrs: { axis: 1 }, strided: true },
    { inputs: [rand([2, 4]), idx([3, 0], 'int64', [2, 1])], attrs: { axis: -1 }, note: 'index [N, 1]' },
    { inputs: [rand([4, 3]), idx([2], 'int64', [])], note: '0-D index drops the axis' },
    { inputs: [rand([4]), idx([1], 'int32', [])], note: '1-D x, 0-D index' },
    { inputs: [rand([4, 3]), idx([])], note: 'empty index' },
    { inputs: [nd([2, 0], []), idx([1, 1])], note: 'empty x' },
    { inputs: [rand([5, 2], 'int64', 3, -50, 50), idx([4, 4, 0])], strided: true },
    { inputs: [rand([3], 'bool', 4), idx([2, 1, 0, 1])] },
  ],
  ref: ([x, index], a) => gatherRef(x, index, a.axis as number | null | undefined),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([4, 3]), idx([0, 4])], error: /gather: index 4 \(position 1\) is out of range for axis 0 of size 4/ },
    { inputs: [rand([4, 3]), idx([-1])], error: /gather: index -1 .* negative indices are not supported/ },
    { inputs: [rand([4, 3]), nd([1], [0], 'float32')], error: /gather: index must be int32 or int64, got float32/ },
    { inputs: [rand([4, 3]), idx([0, 1], 'int64', [1, 2])], error: /gather: index must be 0-D, 1-D or of shape \[N, 1\]/ },
    { inputs: [rand([4, 3]), idx([0])], attrs: { axis: 2 }, error: /gather: axis 2 is out of range/ },
    { inputs: [nd([], [1]), idx([0])], error: /gather: x must have at least one dim/ },
  ],
}, {
  op: 'index_select',
  samples: [
    { inputs: [rand([4, 3]), idx([3, 0, 3])], strided: true },
    { inputs: [rand([2, 4, 3]), idx([2, 1], 'int32')], attrs: { axis: -1 }, strided: true },
    { inputs: [rand([2, 4]), idx([])], attrs: { axis: 1 }, note: 'empty index' },
    { inputs: [rand([3, 2], 'int32', 2, -9, 9), idx([1], 'int64', [1, 1])], note: 'index [N, 1]' },
  ],
  ref: ([x, index], a) => gatherRef(x, index, a.axis as number | undefined),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([4, 3]), idx([1, 3])], attrs: { axis: 1 }, error: /index_select: index 3 \(position 1\) is out of range for axis 1 of size 3/ },
    { inputs: [rand([4, 3]), idx([-2])], error: /index_select: index -2 .* negative indices are not supported/ },
    { inputs: [rand([4, 3]), idx([1], 'int64', [])], error: /index_select: index must be 1-D or of shape \[N, 1\]/ },
  ],
});

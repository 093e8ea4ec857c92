// Records of index_add (the scatter-add behind gather/index_select/embedding gradients).
import { addRecords } from '../op_db.js';
import { nd, rand } from '../ref.js';
import { arr, at, build, normAx } from './shape_util.js';

function indexAddRef(x: unknown, index: unknown, value: unknown, axis: number | undefined) {
  const X = arr(x), I = arr(index), V = arr(value);
  const ax = normAx(axis ?? 0, X.shape.length);
  return build([...X.shape], X.dtype, (idx) => {
    let s = at(X, idx) as number;
    I.data.forEach((target, k) => {
      if (target !== idx[ax]) return;
      const src = [...idx];
      src[ax] = k;
      s += at(V, src) as number;
    });
    return s;
  });
}

const idx = (data: number[], dtype: 'int32' | 'int64' = 'int64', shape = [data.length]) => nd(shape, data, dtype);

addRecords({
  op: 'index_add',
  samples: [
    { inputs: [rand([4, 3]), idx([3, 0, 3]), rand([3, 3])], strided: true, note: 'repeated index accumulates' },
    { inputs: [rand([2, 4, 3]), idx([1, 2], 'int32'), rand([2, 2, 3])], attrs: { axis: 1 }, strided: true },
    { inputs: [rand([2, 4]), idx([3, 0], 'int64', [2, 1]), rand([2, 2])], attrs: { axis: -1 }, note: 'index [N, 1]' },
    { inputs: [rand([4, 3]), idx([]), nd([0, 3], [])], note: 'empty index' },
    { inputs: [rand([5, 2], 'int64', 3, -50, 50), idx([4, 4, 0]), rand([3, 2], 'int64', 5, -50, 50)] },
  ],
  ref: ([x, index, value], a) => indexAddRef(x, index, value, a.axis as number | undefined),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [rand([4, 3]), idx([0, 4]), rand([2, 3])], error: /index_add: index 4 \(position 1\) is out of range for axis 0 of size 4/ },
    { inputs: [rand([4, 3]), idx([-1]), rand([1, 3])], error: /index_add: index -1 .* negative indices are not supported/ },
    { inputs: [rand([4, 3]), nd([1], [0], 'float32'), rand([1, 3])], error: /index_add: index must be int32 or int64, got float32/ },
    { inputs: [rand([4, 3]), idx([0, 1]), rand([3, 3])], error: /index_add: add_value shape \[3, 3\] must be x's \[4, 3\] with axis 0 of size 2/ },
    { inputs: [nd([], [1]), idx([0]), nd([], [1])], error: /index_add: x must have at least one dim/ },
  ],
});

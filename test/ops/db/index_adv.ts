// Records of the advanced-indexing ops: gather_nd, index_put, masked_select, masked_scatter, nonzero.
import { addRecords } from '../op_db.js';
import { nd, rand } from '../ref.js';
import { refGatherNd, refIndexPut, refMaskedScatter, refMaskedSelect, refNonzero } from '../adv_ref.js';
import { arr, arrs } from './shape_util.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;
const idx = (data: number[], shape = [data.length], dtype: 'int32' | 'int64' = 'int64') => nd(shape, data, dtype);
const mask = (bits: number[], shape = [bits.length]) => nd(shape, bits, 'bool');

addRecords({
  op: 'gather_nd',
  samples: [
    { inputs: [rand([3, 4]), idx([1, 2, 0, -1, 2, 3], [3, 2])], strided: true, note: 'full coordinates, negative wraps' },
    { inputs: [rand([3, 4, 2]), idx([2, 0], [2, 1], 'int32')], strided: true, note: 'slices of the trailing dims' },
    { inputs: [rand([3, 4]), idx([1, 0, 2, 1], [2, 2, 1])], note: 'batched index' },
    { inputs: [rand([2, 3]), idx([], [0, 2])], note: 'empty index' },
    { inputs: [rand([2, 3]), idx([], [2, 0])], note: 'k = 0 repeats x' },
    { inputs: [nd([0, 3], []), idx([], [0, 1])], note: 'empty x' },
    { inputs: [rand([4], 'int64', 3, -9, 9), idx([3], [1])], note: '0-D result' },
    { inputs: [rand([3, 2], 'bool', 2), idx([2, 1], [2, 1])] },
  ],
  ref: ([x, i]) => refGatherNd(arr(x), arr(i)),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), idx([3, 0], [1, 2])], error: /gather_nd: index value 3 is out of range for axis 0 with size 3/ },
    { inputs: [rand([3, 4]), idx([0, -5], [1, 2])], error: /gather_nd: index value -5 is out of range for axis 1 with size 4/ },
    { inputs: [rand([3, 4]), idx([0, 0, 0], [1, 3])], error: /gather_nd: index \[1, 3\] has a last dim of 3/ },
    { inputs: [rand([3, 4]), nd([1], [0], 'float32')], error: /gather_nd: index must be int32 or int64/ },
    { inputs: [rand([3, 4]), idx([0], [])], error: /gather_nd: index must have at least one dim/ },
  ],
}, {
  op: 'index_put',
  samples: [
    { inputs: [rand([3, 4]), [idx([0, 2, -1]), idx([1, 3, 0])], rand([3], 'float32', 5)], strided: true, note: 'element writes' },
    { inputs: [rand([3, 4]), [idx([0, 2, 0]), idx([1, 3, 1])], rand([3], 'float32', 5)], attrs: { accumulate: true }, note: 'duplicates accumulate' },
    { inputs: [rand([3, 4]), [idx([2, 0], [2], 'int32')], rand([4], 'float32', 6)], strided: true, note: 'rows, value broadcast' },
    { inputs: [rand([3, 4]), [idx([0, 2], [2, 1]), idx([1, 3, 0])], nd([], [7])], note: 'indices broadcast, 0-D value' },
    { inputs: [rand([2, 3]), [mask([1, 0, 1, 0, 1, 1], [2, 3])], rand([4], 'float32', 7)], note: 'bool mask' },
    { inputs: [rand([2, 3]), [mask([0, 1])], rand([3], 'float32', 7)], attrs: { accumulate: true }, note: 'bool rows' },
    { inputs: [rand([2, 3]), [idx([])], nd([], [7])], note: 'empty index' },
    { inputs: [nd([0, 3], []), [idx([])], nd([3], [1, 2, 3])], note: 'empty x' },
    { inputs: [rand([4], 'int64', 3, -9, 9), [idx([1, 1])], nd([2], [5, 6], 'int64')], attrs: { accumulate: true } },
    { inputs: [rand([3], 'bool', 2), [idx([2])], nd([], [1], 'bool')] },
  ],
  ref: ([x, ii, v], a) => refIndexPut(arr(x), arrs(ii), arr(v), Boolean(a.accumulate)),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), [idx([3])], nd([], [1])], error: /index_put: indices value 3 is out of range for axis 0 with size 3/ },
    { inputs: [rand([3, 4]), [idx([0]), idx([0]), idx([0])], nd([], [1])], error: /index_put: too many indices for x \[3, 4\]/ },
    { inputs: [rand([3, 4]), [idx([0, 1]), idx([0, 1, 2])], nd([], [1])], error: /index_put: .*\[2\] and \[3\] cannot be broadcast/ },
    { inputs: [rand([3, 4]), [idx([0, 1])], nd([3], [1, 2, 3])], error: /index_put: value \[3\] cannot be broadcast to the indexed shape \[2, 4\]/ },
    { inputs: [rand([3, 4]), [mask([1, 0])], nd([], [1])], error: /index_put: bool index \[2\] does not match x \[3, 4\] at axis 0/ },
    { inputs: [rand([3, 4]), [nd([1], [0], 'float32')], nd([], [1])], error: /index_put: indices must be int32, int64 or bool/ },
    { inputs: [rand([3, 4]), [idx([0])], nd([], [1], 'float64')], error: /index_put: value dtype float64 differs from x dtype float32/ },
  ],
}, {
  op: 'masked_select',
  noStatic: 'data-dependent output length: compiled programs refuse it (runs eagerly only)',
  samples: [
    { inputs: [rand([2, 3]), mask([1, 0, 1, 0, 1, 1], [2, 3])], strided: true },
    { inputs: [rand([2, 3]), mask([0, 1, 1])], strided: true, note: 'mask broadcast' },
    { inputs: [rand([1, 3]), mask([1, 0], [2, 1])], note: 'both broadcast' },
    { inputs: [nd([], [4]), mask([1], [])], note: '0-D' },
    { inputs: [rand([2, 3]), mask([0, 0, 0])], note: 'nothing selected' },
    { inputs: [nd([0, 3], []), mask([1, 1, 0])], note: 'empty' },
    { inputs: [rand([3, 2], 'int32', 2, -9, 9), mask([1, 0, 0, 1, 1, 0], [3, 2])] },
    { inputs: [mask([1, 0, 1]), mask([1, 1, 0])] },
  ],
  ref: ([x, m]) => refMaskedSelect(arr(x), arr(m)),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3]), nd([3], [1, 0, 1], 'int32')], error: /masked_select: mask must be bool, got int32/ },
    { inputs: [rand([2, 3]), mask([1, 0])], error: /masked_select: .*cannot be broadcast|masked_select: .*\[2, 3\].*\[2\]/ },
  ],
}, {
  op: 'masked_scatter',
  samples: [
    { inputs: [rand([2, 3]), mask([1, 0, 1, 0, 1, 1], [2, 3]), rand([5], 'float32', 3)], strided: true },
    { inputs: [rand([2, 3]), mask([0, 1, 1]), rand([2, 2], 'float32', 3)], strided: true, note: 'mask broadcast, 2-D value' },
    { inputs: [nd([], [4]), mask([1], []), nd([1], [9])], note: '0-D' },
    { inputs: [rand([2, 3]), mask([0, 0, 0]), nd([0], [])], note: 'nothing written, empty value' },
    { inputs: [nd([0, 3], []), mask([1, 1, 0]), nd([1], [1])], note: 'empty x' },
    { inputs: [rand([3], 'int64', 2, -9, 9), mask([1, 0, 1]), nd([2], [5, 6], 'int64')] },
  ],
  ref: ([x, m, v]) => refMaskedScatter(arr(x), arr(m), arr(v)),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3]), mask([1, 1, 1]), nd([5], [1, 2, 3, 4, 5])], error: /masked_scatter: mask has 6 true elements but value \[5\] has only 5/ },
    { inputs: [rand([2, 3]), mask([1, 0, 1, 0], [4, 1]), nd([5], [1, 2, 3, 4, 5])], error: /masked_scatter: .*(broadcast|\[4, 1\])/ },
    { inputs: [rand([2, 3]), nd([3], [1, 0, 1], 'float32'), nd([5], [1, 2, 3, 4, 5])], error: /masked_scatter: mask must be bool/ },
    { inputs: [rand([2, 3]), mask([1, 0, 1]), nd([5], [1, 2, 3, 4, 5], 'int64')], error: /masked_scatter: value dtype int64 differs from x dtype float32/ },
  ],
}, {
  op: 'nonzero',
  noStatic: 'data-dependent output length: compiled programs refuse it (runs eagerly only)',
  samples: [
    { inputs: [nd([2, 3], [0, 1.5, 0, -2, 0, NaN])], strided: true, note: 'NaN counts as non-zero' },
    { inputs: [nd([4], [0, -0, 3, 0])], note: '-0 is zero' },
    { inputs: [nd([], [5])], note: '0-D: [1, 0]' },
    { inputs: [nd([], [0])], note: '0-D zero: [0, 0]' },
    { inputs: [nd([2, 0, 3], [])], note: 'empty' },
    { inputs: [mask([1, 0, 1, 1], [2, 2])] },
    { inputs: [nd([2, 2, 2], [0, 1, 0, 0, 3, 0, 0, 7], 'int32')], strided: true },
  ],
  ref: ([x]) => refNonzero(arr(x)),
  dtypes: [...FLOATS],
  bad: [],
});

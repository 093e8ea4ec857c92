// Gradient-check records for the advanced-indexing ops (src/ops/defs/index_adv.ts) and for
// tensor indexing built on them (x.get / x.set in src/ops/adv_index.ts).
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const T = (v: unknown) => v as Tensor;
const op = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}) => T(runOp(name, ins, attrs)[0]);
const ints = (data: number[], shape = [data.length], dtype: 'int64' | 'int32' = 'int64') => ({ data, shape, dtype });
const bools = (data: number[], shape = [data.length]) => ({ data, shape, dtype: 'bool' as const });

export const ADV_INDEX_RECORDS: GradRecord[] = [
  { op: 'gather_nd', inputs: [{ shape: [3, 4] }, ints([1, 2, 0, -1, 1, 2], [3, 2])], fn: (x, i) => op('gather_nd', [x, i]), label: 'repeated coordinates' },
  { op: 'gather_nd', label: 'row slices', inputs: [{ shape: [3, 2, 2] }, ints([2, 0, 2], [3, 1], 'int32')], fn: (x, i) => op('gather_nd', [x, i]) },
  { op: 'gather_nd', label: 'batched index', inputs: [{ shape: [3, 2] }, ints([1, 1, 0, 2], [2, 2, 1])], fn: (x, i) => op('gather_nd', [x, i]) },
  {
    op: 'index_put', label: 'to x and value, broadcast value', inputs: [{ shape: [3, 4] }, ints([0, 2]), { shape: [4] }],
    fn: (x, i, v) => op('index_put', [x, i, v]),
  },
  {
    op: 'index_put', label: 'accumulate, duplicates', inputs: [{ shape: [3, 4] }, ints([0, 2, 0]), ints([1, 3, 1]), { shape: [3] }],
    fn: (x, i, j, v) => op('index_put', [x, i, j, v], { accumulate: true }),
  },
  {
    op: 'index_put', label: 'bool mask', inputs: [{ shape: [2, 3] }, bools([1, 0, 1, 0, 1, 1], [2, 3]), { shape: [] }],
    fn: (x, m, v) => op('index_put', [x, m, v]),
  },
  { op: 'masked_select', inputs: [{ shape: [2, 3] }, bools([1, 0, 1, 0, 1, 1], [2, 3])], fn: (x, m) => op('masked_select', [x, m]) },
  { op: 'masked_select', label: 'x broadcast', inputs: [{ shape: [1, 3] }, bools([1, 0, 1, 0, 1, 1], [2, 3])], fn: (x, m) => op('masked_select', [x, m]) },
  {
    op: 'masked_scatter', inputs: [{ shape: [2, 3] }, bools([1, 0, 1]), { shape: [5] }],
    fn: (x, m, v) => op('masked_scatter', [x, m, v]),
  },
  {
    op: 'masked_scatter', label: '2-D value, all written', inputs: [{ shape: [2, 2] }, bools([1, 1, 1, 1], [2, 2]), { shape: [2, 2] }],
    fn: (x, m, v) => op('masked_scatter', [x, m, v]),
  },
];

/** Second-order checks (the rules are written with public ops). */
export const ADV_INDEX_SECOND_ORDER = ['gather_nd', 'index_put', 'masked_select', 'masked_scatter'];

import { addRecords } from '../op_db.js';
import { castValue, mapN, nd, rand } from '../ref.js';

const shapes: [number[], number[]][] = [[[2, 3], [2, 3]], [[2, 3], [3]], [[4, 1, 3], [2, 1]], [[], []], [[0, 3], [3]], [[5], []]];

addRecords({
  op: 'add',
  samples: [
    ...shapes.map(([a, b], i) => ({ inputs: [rand(a, 'float32', i + 1), rand(b, 'float32', i + 11)] })),
    { inputs: [rand([3, 4], 'float32', 3), rand([3, 4], 'float32', 4)], strided: true },
    { inputs: [rand([2, 3], 'int32', 5, -50, 50), rand([3], 'int32', 6, -50, 50)] },
  ],
  ref: ([x, y]) => mapN([x as never, y as never], (a, b) => castValue(a + b, (x as { dtype: 'float32' }).dtype)),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [rand([2, 3]), rand([4])], error: /add: shapes \[2, 3\] and \[4\] cannot be broadcast/ },
    { inputs: [rand([2, 3]), nd([3], [1, 2, 3], 'int32')], error: /add/ },
  ],
});

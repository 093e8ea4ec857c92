// Records of concat, stack, split, unbind, tile, flip and pad.
import { addRecords } from '../op_db.js';
import { castValue, nd, rand, size } from '../ref.js';
import { arr, arrs, at, build, iota, normAx } from './shape_util.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;

addRecords({
  op: 'concat',
  samples: [
    { inputs: [[rand([2, 3]), rand([1, 3], 'float32', 2)]] },
    { inputs: [[rand([2, 3]), rand([2, 1], 'float32', 2), rand([2, 2], 'float32', 3)]], attrs: { axis: -1 } },
    { inputs: [[rand([2, 3])]], note: 'one input' },
    { inputs: [[nd([0, 3], []), rand([2, 3])]], note: 'an empty input' },
    { inputs: [[nd([2, 0], []), nd([2, 0], [])]], attrs: { axis: 1 }, note: 'all empty' },
    { inputs: [[rand([2], 'int64', 1, -9, 9), rand([3], 'int64', 2, -9, 9)]] },
    { inputs: [[iota([2, 1], 'bool'), iota([2, 2], 'bool')]], attrs: { axis: 1 } },
  ],
  ref: ([xs], a) => {
    const X = arrs(xs);
    const axis = normAx((a.axis as number) ?? 0, X[0].shape.length);
    const shape = [...X[0].shape];
    shape[axis] = X.reduce((s, t) => s + t.shape[axis], 0);
    return build(shape, X[0].dtype, (idx) => {
      let k = 0, i = idx[axis];
      while (i >= X[k].shape[axis]) i -= X[k++].shape[axis];
      const src = [...idx];
      src[axis] = i;
      return at(X[k], src);
    });
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [[rand([2, 3]), rand([2, 4])]], error: /concat: shapes \[2, 3\] and \[2, 4\] differ outside axis 0/ },
    { inputs: [[rand([2, 3]), rand([3])]], error: /concat: inputs must have the same rank/ },
    { inputs: [[rand([2]), rand([2], 'int32')]], error: /concat: all inputs must have the same dtype, got float32 and int32/ },
    { inputs: [[nd([], [1]), nd([], [2])]], error: /concat: 0-D tensors cannot be concatenated/ },
    { inputs: [[rand([2])]], attrs: { axis: 1 }, error: /concat: axis 1 is out of range/ },
    { inputs: [[]], error: /concat: x must contain at least one tensor/ },
  ],
}, {
  op: 'stack',
  samples: [
    { inputs: [[rand([2, 3]), rand([2, 3], 'float32', 2), rand([2, 3], 'float32', 3)]], attrs: { axis: 1 } },
    { inputs: [[rand([2, 3]), rand([2, 3], 'float32', 2)]], attrs: { axis: -1 } },
    { inputs: [[nd([], [1]), nd([], [2])]], note: '0-D inputs' },
    { inputs: [[nd([0, 2], []), nd([0, 2], [])]], attrs: { axis: 2 }, note: 'empty' },
    { inputs: [[rand([3], 'int32', 1, -9, 9), rand([3], 'int32', 2, -9, 9)]] },
  ],
  ref: ([xs], a) => {
    const X = arrs(xs);
    const axis = normAx((a.axis as number) ?? 0, X[0].shape.length + 1);
    const shape = [...X[0].shape];
    shape.splice(axis, 0, X.length);
    return build(shape, X[0].dtype, (idx) => at(X[idx[axis]], idx.filter((_, i) => i !== axis)));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [[rand([2, 3]), rand([3, 2])]], error: /stack: all inputs must have the same shape/ },
    { inputs: [[rand([2])]], attrs: { axis: 2 }, error: /stack: axis 2 is out of range/ },
  ],
}, {
  op: 'split',
  samples: [
    { inputs: [rand([6, 4])], attrs: { num_or_sections: 3 }, strided: true },
    { inputs: [rand([2, 6])], attrs: { num_or_sections: [1, -1, 2], axis: 1 }, strided: true },
    { inputs: [rand([2, 6])], attrs: { num_or_sections: [2, 0, 4], axis: -1 }, note: 'a 0 section' },
    { inputs: [nd([0, 4], [])], attrs: { num_or_sections: 2, axis: 1 }, note: 'empty' },
    { inputs: [rand([4], 'int64', 3, -9, 9)], attrs: { num_or_sections: [3, 1] } },
    { inputs: [rand([3], 'float32', 4)], attrs: { num_or_sections: [3] }, note: 'one section' },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const axis = normAx((a.axis as number) ?? 0, X.shape.length);
    const dim = X.shape[axis];
    const v = a.num_or_sections;
    let secs = typeof v === 'number' ? new Array<number>(v).fill(dim / v) : [...(v as number[])];
    const known = secs.filter((s) => s !== -1).reduce((p, s) => p + s, 0);
    secs = secs.map((s) => (s === -1 ? dim - known : s));
    let at0 = 0;
    return secs.map((s) => {
      const shape = [...X.shape];
      shape[axis] = s;
      const begin = at0;
      at0 += s;
      return build(shape, X.dtype, (idx) => { const src = [...idx]; src[axis] += begin; return at(X, src); });
    });
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([5, 2])], attrs: { num_or_sections: 2 }, error: /split: the size 5 of axis 0 of x \[5, 2\] is not divisible by num_or_sections 2/ },
    { inputs: [rand([5, 2])], attrs: { num_or_sections: [-1, -1] }, error: /split: only one section may be -1/ },
    { inputs: [rand([5, 2])], attrs: { num_or_sections: [2, 2] }, error: /split: sections \[2,2\] sum to 4, but axis 0/ },
    { inputs: [rand([5, 2])], attrs: { num_or_sections: [5, -1] }, error: /split: sections \[5,-1\] other than -1 sum to 5, which must be less than the size 5/ },
    { inputs: [nd([], [1])], attrs: { num_or_sections: 1 }, error: /split: x is a 0-D tensor/ },
  ],
}, {
  op: 'unbind',
  samples: [
    { inputs: [rand([3, 2])], strided: true },
    { inputs: [rand([2, 3, 2])], attrs: { axis: -2 }, strided: true },
    { inputs: [nd([2, 0], [])], attrs: { axis: 0 }, note: 'empty outputs' },
    { inputs: [nd([2, 0], [])], attrs: { axis: 1 }, note: 'no outputs' },
    { inputs: [rand([2, 2], 'int32', 3, -9, 9)], attrs: { axis: 1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const axis = normAx((a.axis as number) ?? 0, X.shape.length);
    const shape = X.shape.filter((_, i) => i !== axis);
    return Array.from({ length: X.shape[axis] }, (_, k) => build(shape, X.dtype, (idx) => { const src = [...idx]; src.splice(axis, 0, k); return at(X, src); }));
  },
  dtypes: [...FLOATS],
  bad: [{ inputs: [nd([], [1])], error: /unbind: input is a 0-D tensor/ }],
}, {
  op: 'tile',
  samples: [
    { inputs: [rand([2, 3])], attrs: { repeat_times: [2, 1] }, strided: true },
    { inputs: [rand([3])], attrs: { repeat_times: [2, 2] }, strided: true, note: 'repeat_times longer than x' },
    { inputs: [rand([2, 3])], attrs: { repeat_times: [3] }, note: 'repeat_times shorter than x' },
    { inputs: [nd([], [4])], attrs: { repeat_times: [3] }, note: '0-D' },
    { inputs: [nd([0, 2], [])], attrs: { repeat_times: [2, 2] }, note: 'empty' },
    { inputs: [rand([2], 'int64', 3, -9, 9)], attrs: { repeat_times: [1, 3] } },
    { inputs: [iota([2], 'bool')], attrs: { repeat_times: [2] } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    let reps = a.repeat_times as number[];
    const r = Math.max(reps.length, X.shape.length);
    reps = [...new Array(r - reps.length).fill(1), ...reps];
    const xs = [...new Array(r - X.shape.length).fill(1), ...X.shape];
    const lead = r - X.shape.length;
    return build(xs.map((d, i) => d * reps[i]), X.dtype, (idx) => at(X, idx.slice(lead).map((k, i) => k % X.shape[i])));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2])], attrs: { repeat_times: [0] }, error: /tile: every element of repeat_times must be greater than 0/ },
    { inputs: [rand([2])], attrs: { repeat_times: [] }, error: /tile: repeat_times must not be empty/ },
  ],
}, {
  op: 'flip',
  samples: [
    { inputs: [rand([2, 3, 4])], attrs: { axis: [0, 2] }, strided: true },
    { inputs: [rand([3, 4])], attrs: { axis: -1 }, strided: true },
    { inputs: [rand([3, 4])], attrs: { axis: [] }, note: 'no axes' },
    { inputs: [nd([], [2])], attrs: { axis: 0 }, note: '0-D' },
    { inputs: [nd([2, 0], [])], attrs: { axis: [0, 1] }, note: 'empty' },
    { inputs: [rand([5], 'int32', 4, -9, 9)], attrs: { axis: 0 } },
    { inputs: [iota([2, 2], 'uint8')], attrs: { axis: 1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const r = X.shape.length;
    const axes = new Set(r === 0 ? [] : ([a.axis].flat() as number[]).map((d) => normAx(d, r)));
    return build([...X.shape], X.dtype, (idx) => at(X, idx.map((k, i) => (axes.has(i) ? X.shape[i] - 1 - k : k))));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3])], attrs: { axis: [1, 1] }, error: /flip: axis \[1,1\] has duplicates/ },
    { inputs: [rand([2, 3])], attrs: { axis: [2] }, error: /flip: axis 2 is out of range/ },
  ],
}, {
  op: 'pad',
  samples: [
    { inputs: [rand([2, 3])], attrs: { pad: [1, 0, 2, 1] }, strided: true, note: '2*rank entries: first dim first' },
    { inputs: [rand([1, 2, 3])], attrs: { pad: [1, 2], value: 9, data_format: 'NCL' }, strided: true, note: 'NCL: pads L' },
    { inputs: [rand([1, 1, 2, 3])], attrs: { pad: [1, 0, 0, 2], value: -1 }, note: 'NCHW: [left, right, top, bottom]' },
    { inputs: [rand([1, 2, 3, 1])], attrs: { pad: [1, 1, 2, 0], data_format: 'NHWC' }, note: 'NHWC' },
    { inputs: [rand([1, 1, 2, 2, 2])], attrs: { pad: [0, 1, 1, 0, 1, 1], data_format: 'NCDHW' }, note: 'NCDHW' },
    { inputs: [nd([], [3])], attrs: { pad: [] }, note: '0-D' },
    { inputs: [nd([0, 2], [])], attrs: { pad: [1, 1, 0, 0], value: 5 }, note: 'empty' },
    { inputs: [rand([2, 2], 'int64', 3, -9, 9)], attrs: { pad: [0, 1, 1, 0], value: 3.7 }, note: 'value truncates for ints' },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const r = X.shape.length;
    const p = a.pad as number[];
    const pairs: [number, number][] = X.shape.map(() => [0, 0]);
    if (p.length === 2 * r) for (let i = 0; i < r; i++) pairs[i] = [p[2 * i], p[2 * i + 1]];
    else {
      const last = String(a.data_format ?? 'NCHW').endsWith('C') ? r - 2 : r - 1;
      for (let k = 0; k < p.length / 2; k++) pairs[last - k] = [p[2 * k], p[2 * k + 1]];
    }
    const value = castValue((a.value as number) ?? 0, X.dtype);
    return build(X.shape.map((d, i) => d + pairs[i][0] + pairs[i][1]), X.dtype, (idx) => {
      const src = idx.map((k, i) => k - pairs[i][0]);
      return src.every((k, i) => k >= 0 && k < X.shape[i]) && size(X.shape) > 0 ? at(X, src) : value;
    });
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([1, 2, 3])], attrs: { pad: [1, 1] }, error: /pad: data_format for a 3-D input must be one of NCL, NLC, got 'NCHW'/ },
    { inputs: [rand([1, 2, 3])], attrs: { pad: [3, 1], mode: 'reflect', data_format: 'NCL' }, error: /pad: mode 'reflect' needs paddings smaller than the padded dim/ },
    { inputs: [rand([2, 3])], attrs: { pad: [1, -1, 0, 0] }, error: /pad: paddings must be >= 0/ },
    { inputs: [rand([2, 3])], attrs: { pad: [1, 1] }, error: /pad: pad has 2 entries, so x must be 3-, 4- or 5-D/ },
    { inputs: [rand([1, 1, 2, 3])], attrs: { pad: [1, 1] }, error: /pad: pad must have 4 entries for a 4-D input/ },
    { inputs: [rand([2], 'int32', 1, -9, 9)], attrs: { pad: [1, 1], value: 1e10 }, error: /pad: value 10000000000.* is out of range for int32/ },
  ],
});

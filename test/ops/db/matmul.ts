import { addRecords } from '../op_db.js';
import { type NDArray, rand, size, stridesOf, unravel } from '../ref.js';

/** Reference matmul in float64 with numpy 1-D promotion and batch broadcasting. */
function refMatmul(x: NDArray, y: NDArray, tx = false, ty = false): NDArray {
  const t2 = (a: NDArray, t: boolean): NDArray => {
    if (!t || a.shape.length < 2) return a;
    const s = [...a.shape];
    const r = s.length;
    [s[r - 2], s[r - 1]] = [s[r - 1], s[r - 2]];
    const data = new Array(size(s));
    const st = stridesOf(a.shape);
    for (let i = 0; i < data.length; i++) {
      const idx = unravel(i, s);
      [idx[r - 2], idx[r - 1]] = [idx[r - 1], idx[r - 2]];
      data[i] = a.data[idx.reduce((acc, v, d) => acc + v * st[d], 0)];
    }
    return { shape: s, data, dtype: a.dtype };
  };
  let a = t2(x, tx), b = t2(y, ty);
  const v1 = a.shape.length === 1, w1 = b.shape.length === 1;
  if (v1) a = { ...a, shape: [1, a.shape[0]] };
  if (w1) b = { ...b, shape: [b.shape[0], 1] };
  const ba = a.shape.slice(0, -2), bb = b.shape.slice(0, -2);
  const nb = Math.max(ba.length, bb.length);
  const batch: number[] = [];
  for (let i = 0; i < nb; i++) { const p = ba[ba.length - nb + i] ?? 1, q = bb[bb.length - nb + i] ?? 1; batch.push(p === 1 ? q : p); }
  const [m, k] = a.shape.slice(-2), n = b.shape[b.shape.length - 1];
  const out: number[] = [];
  const nbatch = size(batch);
  for (let bi = 0; bi < nbatch; bi++) {
    const idx = unravel(bi, batch);
    const off = (sh: number[]) => { let o = 0, mul = 1; for (let d = sh.length - 1; d >= 0; d--) { const v = sh[d] === 1 ? 0 : idx[idx.length - sh.length + d]; o += v * mul; mul *= sh[d]; } return o; };
    const oa = off(ba) * m * k, ob = off(bb) * k * n;
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += a.data[oa + i * k + p] * b.data[ob + p * n + j];
      out.push(x.dtype === 'float32' ? Math.fround(s) : s);
    }
  }
  const shape = [...batch, ...(v1 ? [] : [m]), ...(w1 ? [] : [n])];
  return { shape, data: out, dtype: x.dtype };
}

addRecords({
  op: 'matmul',
  samples: [
    { inputs: [rand([2, 3], 'float32', 1), rand([3, 4], 'float32', 2)] },
    { inputs: [rand([17, 33], 'float32', 3), rand([33, 65], 'float32', 4)], note: 'odd sizes' },
    { inputs: [rand([3], 'float32', 5), rand([3], 'float32', 6)], note: '1-D x 1-D' },
    { inputs: [rand([3], 'float32', 5), rand([3, 2], 'float32', 6)], note: '1-D x 2-D' },
    { inputs: [rand([2, 1, 3, 4], 'float32', 7), rand([5, 4, 6], 'float32', 8)], note: 'batch broadcast' },
    { inputs: [rand([4, 3], 'float32', 9), rand([5, 4], 'float32', 10)], attrs: { transpose_x: true, transpose_y: true } },
    { inputs: [rand([0, 3], 'float32', 11), rand([3, 2], 'float32', 12)], note: 'm = 0' },
    { inputs: [rand([3, 5], 'float32', 13), rand([5, 4], 'float32', 14)], strided: true },
    { inputs: [rand([2, 3], 'int32', 15, -5, 5), rand([3, 2], 'int32', 16, -5, 5)] },
  ],
  ref: ([x, y], a) => refMatmul(x as NDArray, y as NDArray, Boolean(a.transpose_x), Boolean(a.transpose_y)),
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-4, rtol: 1e-4,
  bad: [
    { inputs: [rand([2, 3]), rand([4, 5])], error: /matmul: cannot multiply shapes \[2, 3\] and \[4, 5\]/ },
    { inputs: [rand([2, 3]), rand([3, 2], 'float64')], error: /matmul: .*dtypes/ },
  ],
}, {
  op: 'bmm',
  samples: [{ inputs: [rand([2, 3, 4], 'float32', 1), rand([2, 4, 5], 'float32', 2)] }],
  ref: ([x, y]) => refMatmul(x as NDArray, y as NDArray),
  dtypes: ['float64'],
  atol: 1e-4, rtol: 1e-4,
  bad: [{ inputs: [rand([2, 3, 4]), rand([3, 4, 5])], error: /bmm: batch sizes differ/ }],
});

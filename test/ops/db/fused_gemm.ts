// Record of fused_gemm_epilogue (act(op(x) @ op(y) + bias)), the op the gemm fusion pass makes.
import { addRecords } from '../op_db.js';
import { type NDArray, rand } from '../ref.js';
import { erf } from './unary.js';

const ACT: Record<string, (v: number) => number> = {
  none: (v) => v,
  relu: (v) => (v <= 0 ? 0 : v),
  gelu: (v) => 0.5 * v * (1 + erf(v / Math.SQRT2)),
  gelu_tanh: (v) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3))),
};

function refFused([x, y, b]: NDArray[], a: Record<string, unknown>): NDArray {
  const tx = Boolean(a.trans_x), ty = Boolean(a.trans_y), act = ACT[String(a.activation ?? 'none')];
  const r = x.shape.length;
  const k = tx ? x.shape[0] : x.shape[r - 1];
  const m = tx ? x.shape[1] : x.shape.slice(0, -1).reduce((p, q) => p * q, 1);
  const n = ty ? y.shape[0] : y.shape[1];
  const xa = (i: number, p: number): number => (tx ? x.data[p * m + i] : x.data[i * k + p]);
  const ya = (p: number, j: number): number => (ty ? y.data[j * k + p] : y.data[p * n + j]);
  const data: number[] = [];
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let p = 0; p < k; p++) s += xa(i, p) * ya(p, j);
    data.push(act(s + b.data[j]));
  }
  const shape = [...(tx ? [x.shape[1]] : x.shape.slice(0, -1)), n];
  return { shape, data, dtype: x.dtype };
}

addRecords({
  op: 'fused_gemm_epilogue',
  samples: [
    { inputs: [rand([3, 4], 'float32', 1), rand([4, 5], 'float32', 2), rand([5], 'float32', 3)] },
    { inputs: [rand([3, 4], 'float32', 1), rand([4, 5], 'float32', 2), rand([5], 'float32', 3)], attrs: { activation: 'relu' } },
    { inputs: [rand([2, 3, 4], 'float32', 4), rand([4, 6], 'float32', 5), rand([6], 'float32', 6)], attrs: { activation: 'gelu' }, note: '3-D x' },
    { inputs: [rand([4, 3], 'float32', 7), rand([5, 4], 'float32', 8), rand([5], 'float32', 9)], attrs: { trans_x: true, trans_y: true, activation: 'gelu_tanh' } },
    { inputs: [rand([17, 33], 'float32', 10), rand([33, 65], 'float32', 11), rand([65], 'float32', 12)], attrs: { activation: 'relu' }, note: 'odd sizes' },
    { inputs: [rand([0, 3], 'float32', 13), rand([3, 2], 'float32', 14), rand([2], 'float32', 15)], note: 'm = 0' },
    { inputs: [rand([3, 5], 'float32', 16), rand([5, 4], 'float32', 17), rand([4], 'float32', 18)], strided: true },
  ],
  ref: (ins, a) => refFused(ins as NDArray[], a),
  dtypes: ['float64'],
  atol: 1e-4, rtol: 1e-4,
  bad: [
    { inputs: [rand([2, 3]), rand([4, 5]), rand([5])], error: /fused_gemm_epilogue: cannot multiply/ },
    { inputs: [rand([2, 3]), rand([3, 5]), rand([4])], error: /fused_gemm_epilogue: cannot multiply/ },
    { inputs: [rand([2, 3]), rand([3, 5], 'float64'), rand([5])], error: /fused_gemm_epilogue: inputs must share a dtype/ },
    { inputs: [rand([2, 3]), rand([3, 5]), rand([5])], attrs: { activation: 'tanh' }, error: /fused_gemm_epilogue: activation must be one of/ },
    { inputs: [rand([3]), rand([3, 5]), rand([5])], error: /fused_gemm_epilogue: expects x of rank >= 2/ },
  ],
});

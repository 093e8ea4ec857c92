// scaled_dot_product_attention and rms_norm records: plain-loop references (the attention one
// materialises every score row, which the fused kernel never does).
import { addRecords } from '../op_db.js';
import { castValue, type NDArray, nd, rand, size } from '../ref.js';
import type { DType } from '../../../src/tensor/dtype.js';

type Attrs = Record<string, unknown>;
type In = (NDArray | NDArray[] | null)[];

/** Value of a mask broadcast to [B, H, Sq, Sk] at (b, h, i, j). */
function maskAt(m: NDArray, idx: number[]): number {
  const off = 4 - m.shape.length;
  let p = 0;
  for (let d = 0; d < m.shape.length; d++) p = p * m.shape[d] + (m.shape[d] === 1 ? 0 : idx[off + d]);
  return m.data[p];
}

function refSdpa(inputs: In, a: Attrs): NDArray {
  const [q, k, v, m] = inputs as [NDArray, NDArray, NDArray, NDArray | null];
  const [B, Sq, H, D] = q.shape, Sk = k.shape[1], Dv = v.shape[3];
  const causal = Boolean(a.is_causal);
  const scale = 1 / Math.sqrt(D);
  const at4 = (x: NDArray, b: number, s: number, h: number, d: number) => x.data[((b * x.shape[1] + s) * x.shape[2] + h) * x.shape[3] + d];
  const out = new Array<number>(B * Sq * H * Dv).fill(0);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let i = 0; i < Sq; i++) {
        if (Sk === 0) continue;
        const s: number[] = [];
        for (let j = 0; j < Sk; j++) {
          let dot = 0;
          for (let d = 0; d < D; d++) dot += at4(q, b, i, h, d) * at4(k, b, j, h, d);
          let e = dot * scale;
          if (m) e = m.dtype === 'bool' ? (maskAt(m, [b, h, i, j]) ? e : -Infinity) : e + maskAt(m, [b, h, i, j]);
          if (causal && j > i) e = -Infinity;
          s.push(e);
        }
        const mx = Math.max(...s);
        const ex = s.map((e) => Math.exp(e - mx));
        const tot = ex.reduce((p, e) => p + e, 0);
        for (let d = 0; d < Dv; d++) {
          let acc = 0;
          for (let j = 0; j < Sk; j++) acc += (ex[j] / tot) * at4(v, b, j, h, d);
          out[((b * Sq + i) * H + h) * Dv + d] = castValue(acc, q.dtype);
        }
      }
  return { shape: [B, Sq, H, Dv], data: out, dtype: q.dtype };
}

function refRmsNorm(inputs: In, a: Attrs): NDArray[] {
  const [x, w, bi] = inputs as [NDArray, NDArray | null, NDArray | null];
  const begin = (a.begin_norm_axis as number | undefined) ?? 1;
  const eps = (a.epsilon as number | undefined) ?? 1e-6;
  const left = size(x.shape.slice(0, begin)), right = size(x.shape.slice(begin));
  const statDt: DType = x.dtype === 'float64' ? 'float64' : 'float32';
  const out = new Array<number>(x.data.length), inv: number[] = [];
  for (let l = 0; l < left; l++) {
    const row = x.data.slice(l * right, (l + 1) * right);
    const r = 1 / Math.sqrt(row.reduce((p, e) => p + e * e, 0) / right + eps);
    row.forEach((e, i) => { out[l * right + i] = castValue(e * r * (w ? w.data[i] : 1) + (bi ? bi.data[i] : 0), x.dtype); });
    inv.push(castValue(r, statDt));
  }
  return [{ shape: x.shape, data: out, dtype: x.dtype }, { shape: [left], data: inv, dtype: statDt }];
}

const r = (shape: number[], seed: number, lo = -1.5, hi = 1.5) => rand(shape, 'float32', seed, lo, hi);
/** A bool mask whose first key column is always kept (no row loses every score). */
const keepMask = (shape: number[], seed: number): NDArray => {
  const m = rand(shape, 'bool', seed);
  const sk = shape[shape.length - 1];
  return { ...m, data: m.data.map((e, i) => (i % sk === 0 ? 1 : e)) };
};

addRecords({
  op: 'scaled_dot_product_attention',
  samples: [
    { inputs: [r([2, 5, 3, 4], 1), r([2, 5, 3, 4], 2), r([2, 5, 3, 4], 3), null], strided: true },
    { inputs: [r([1, 6, 2, 4], 4), r([1, 6, 2, 4], 5), r([1, 6, 2, 4], 6), null], attrs: { is_causal: true }, strided: true, note: 'causal' },
    { inputs: [r([1, 3, 2, 4], 7), r([1, 5, 2, 4], 8), r([1, 5, 2, 3], 9), null], note: 'key length and value head_dim differ' },
    { inputs: [r([2, 3, 2, 4], 10), r([2, 5, 2, 4], 11), r([2, 5, 2, 4], 12), r([1, 1, 3, 5], 13)], note: 'additive mask broadcast over batch and heads' },
    { inputs: [r([2, 3, 2, 4], 14), r([2, 4, 2, 4], 15), r([2, 4, 2, 4], 16), keepMask([2, 1, 3, 4], 17)], note: 'bool mask broadcast over heads' },
    { inputs: [r([1, 4, 1, 3], 18), r([1, 4, 1, 3], 19), r([1, 4, 1, 3], 20), r([4, 4], 21)], attrs: { is_causal: true }, note: '2-D mask with causal' },
    { inputs: [r([1, 130, 1, 3], 22), r([1, 140, 1, 3], 23), r([1, 140, 1, 2], 24), null], attrs: { is_causal: true }, note: 'several query and key blocks' },
    { inputs: [r([1, 70, 2, 5], 25), r([1, 150, 2, 5], 26), r([1, 150, 2, 5], 27), null], strided: true, note: 'several key blocks, online rescaling' },
    { inputs: [nd([1, 2, 1, 2], [30, -30, 1, 2]), nd([1, 3, 1, 2], [1, 0, 0, 1, -1, -1]), nd([1, 3, 1, 1], [1, 2, 3]), null], note: 'large logits' },
    { inputs: [r([2, 3, 1, 4], 28), r([2, 3, 1, 4], 29), r([2, 3, 1, 4], 30), null], attrs: { dropout_p: 0.5, training: false }, note: 'dropout off in eval' },
    { inputs: [nd([1, 2, 1, 2], [1, 2, 3, 4]), nd([1, 3, 1, 2], [NaN, 1, 0, 1, 2, 0]), nd([1, 3, 1, 1], [1, 2, 3]), null], note: 'NaN key poisons every row' },
    { inputs: [nd([1, 2, 1, 2], [1, 2, 3, 4]), nd([1, 3, 1, 2], [1, 1, 0, 1, 2, 0]), nd([1, 3, 1, 1], [1, 2, 3]), nd([2, 3], [0, 1, 1, 0, 0, 0], 'bool')], note: 'a fully masked row gives NaN' },
    { inputs: [r([0, 3, 2, 4], 31), r([0, 3, 2, 4], 32), r([0, 3, 2, 4], 33), null], note: 'empty batch' },
    { inputs: [r([1, 2, 1, 3], 34), r([1, 0, 1, 3], 35), r([1, 0, 1, 3], 36), null], note: 'no keys: zeros' },
  ],
  ref: refSdpa,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 2e-5, rtol: 1e-4,
  bad: [
    { inputs: [r([5, 3, 4], 1), r([5, 3, 4], 2), r([5, 3, 4], 3), null], error: /scaled_dot_product_attention: query, key and value must be 4-D/ },
    { inputs: [r([1, 2, 2, 4], 1), r([1, 2, 3, 4], 2), r([1, 2, 3, 4], 3), null], error: /scaled_dot_product_attention: shapes do not match/ },
    { inputs: [r([1, 2, 2, 4], 1), r([1, 2, 2, 4], 2), rand([1, 2, 2, 4], 'float64', 3), null], error: /scaled_dot_product_attention: query, key and value dtypes differ/ },
    { inputs: [r([1, 2, 2, 4], 1), r([1, 3, 2, 4], 2), r([1, 3, 2, 4], 3), r([3, 2], 4)], error: /scaled_dot_product_attention: attn_mask of shape \[3, 2\] does not broadcast/ },
    { inputs: [r([1, 2, 2, 4], 1), r([1, 2, 2, 4], 2), r([1, 2, 2, 4], 3), rand([2, 2], 'int32', 4)], error: /scaled_dot_product_attention: attn_mask must be bool or float32/ },
    { inputs: [rand([1, 2, 2, 4], 'int32', 1), rand([1, 2, 2, 4], 'int32', 2), rand([1, 2, 2, 4], 'int32', 3), null], error: /scaled_dot_product_attention: expected a floating-point query/ },
    { inputs: [r([1, 2, 2, 4], 1), r([1, 2, 2, 4], 2), r([1, 2, 2, 4], 3), null], attrs: { dropout_p: 1.5 }, error: /scaled_dot_product_attention: dropout_p must be in \[0, 1\]/ },
    { inputs: [r([1, 2, 2, 4], 1), r([1, 2, 2, 4], 2), r([1, 2, 2, 4], 3), null], attrs: { dropout_p: 0.1 }, error: /scaled_dot_product_attention: the fused op has no dropout/ },
    { inputs: [nd([], [1]), nd([], [1]), nd([], [1]), null], error: /scaled_dot_product_attention: query, key and value must be 4-D/ },
  ],
}, {
  op: 'rms_norm',
  samples: [
    { inputs: [r([2, 3, 4], 1), r([4], 2), r([4], 3)], attrs: { begin_norm_axis: 2 }, strided: true },
    { inputs: [r([2, 3, 4], 4), r([12], 5), null], attrs: { begin_norm_axis: 1, epsilon: 1e-3 }, note: 'flattened weight' },
    { inputs: [r([3, 2, 2], 7), r([2, 2], 8), null], attrs: { begin_norm_axis: 1 }, note: '2-D weight' },
    { inputs: [r([4, 37], 9), null, null], strided: true, note: 'no affine, odd row length' },
    { inputs: [r([6], 10), null, r([6], 11)], attrs: { begin_norm_axis: 0 }, note: 'whole tensor, bias only' },
    { inputs: [r([1, 5], 12), r([5], 13), null], note: 'broadcast-free single row' },
    { inputs: [r([0, 5], 14), null, null], note: 'empty' },
    { inputs: [nd([2, 2], [0, 0, 3, 4]), null, null], note: 'zero row' },
  ],
  ref: refRmsNorm,
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-5, rtol: 1e-4,
  bad: [
    { inputs: [r([2, 3], 1), r([4], 2), null], error: /rms_norm: weight of shape \[4\] does not match normalized shape \[3\]/ },
    { inputs: [r([2, 3], 1), null, null], attrs: { begin_norm_axis: 2 }, error: /rms_norm: begin_norm_axis 2 is out of range/ },
    { inputs: [nd([], [2]), null, null], attrs: { begin_norm_axis: 0 }, error: /rms_norm: begin_norm_axis 0 is out of range for input of shape \[\]/ },
    { inputs: [rand([2, 3], 'int32', 1), null, null], error: /rms_norm: expected a floating-point input/ },
    { inputs: [r([2, 3], 1), null, rand([3], 'float64', 2)], error: /rms_norm: bias dtype float64 differs/ },
    { inputs: [r([2, 3], 1), null, null], attrs: { epsilon: -1 }, error: /rms_norm: epsilon must be a non-negative number/ },
  ],
});

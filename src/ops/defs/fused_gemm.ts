// fused_gemm_epilogue (Paddle's fused op): act(op(x) @ op(y) + bias) in one kernel. Not public
// API: the inference pipeline's fusion pass (src/passes/fuse_gemm.ts) makes it from
// matmul + add (+ relu/gelu). Native: native/kernels/fused_gemm.cc. Its grad rule recomputes
// the pre-activation and reuses relu's/gelu's rules, so the fused op is differentiable too.
import { getOp, registerOp } from '../registry.js';
import { kit } from '../grad_kit.js';
import type { GradContext } from '../types.js';
import type { GradOps } from '../grad_kit.js';
import { type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';

/** Activation names and their kernel codes; 'gelu' is the exact (erf) form, 'gelu_tanh' the approximation. */
export const GEMM_ACTIVATIONS: Readonly<Record<string, number>> = { none: 0, relu: 1, gelu: 2, gelu_tanh: 3 };

const known = (a: Dim, b: Dim): boolean => typeof a !== 'number' || typeof b !== 'number' || a === b;

export const fusedGemmEpilogue = registerOp({
  name: 'fused_gemm_epilogue',
  inputs: [{ name: 'x' }, { name: 'y' }, { name: 'bias' }],
  attrs: [
    { name: 'trans_x', type: 'bool', default: false },
    { name: 'trans_y', type: 'bool', default: false },
    { name: 'activation', type: 'str', default: 'none' },
  ],
  outputs: ['out'],
  infer: ([x, y, bias], a) => {
    const op = 'fused_gemm_epilogue';
    const shapes = `x ${shapeStr(x.shape)}, y ${shapeStr(y.shape)}, bias ${shapeStr(bias.shape)}`;
    if (x.dtype !== y.dtype || x.dtype !== bias.dtype) throw new TypeError(`${op}: inputs must share a dtype, got ${x.dtype}, ${y.dtype}, ${bias.dtype}`);
    if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${op}: unsupported dtype ${x.dtype} (float32 or float64)`);
    if (!(String(a.activation) in GEMM_ACTIVATIONS)) throw new TypeError(`${op}: activation must be one of ${Object.keys(GEMM_ACTIVATIONS).join(', ')}, got '${String(a.activation)}'`);
    const tx = Boolean(a.trans_x), ty = Boolean(a.trans_y);
    if (x.shape.length < 2 || y.shape.length !== 2 || bias.shape.length !== 1 || (tx && x.shape.length !== 2)) {
      throw new ShapeError(`${op}: expects x of rank >= 2 (2 with trans_x), a 2-D y and a 1-D bias, got ${shapes}`);
    }
    const r = x.shape.length;
    const k = tx ? x.shape[0] : x.shape[r - 1];
    const ky = ty ? y.shape[1] : y.shape[0], n = ty ? y.shape[0] : y.shape[1];
    if (!known(k, ky) || !known(bias.shape[0], n)) throw new ShapeError(`${op}: cannot multiply ${shapes} (trans_x=${tx}, trans_y=${ty})`);
    const lead = tx ? [x.shape[1]] : x.shape.slice(0, -1);
    return [{ dtype: x.dtype, shape: [...lead, n] }];
  },
  encode: (a) => [a.trans_x ? 1 : 0, a.trans_y ? 1 : 0, GEMM_ACTIVATIONS[String(a.activation)]],
  api: { names: [], methods: [] },
  gradReads: { inputs: [0, 1, 2], outputs: [0] },
  grad: gemmGrad,
});

/** z = op(x) @ op(y) + bias, out = act(z): dz from the activation's own rule, then matmul's. */
function gemmGrad<T>({ inputs: [x, y, bias], outputs: [out], outGrads: [g], attrs, needsGrad }: GradContext<T>, ops: GradOps<T>): (T | null)[] {
  const k = kit(ops);
  const tx = Boolean(attrs.trans_x), ty = Boolean(attrs.trans_y);
  const act = String(attrs.activation);
  let dz: T = g!;
  if (act !== 'none') {
    const z = k.add(k.op('matmul', [x!, y!], { transpose_x: tx, transpose_y: ty }), bias!);
    const def = getOp(act === 'relu' ? 'relu' : 'gelu');
    dz = def.grad!<T>({ inputs: [z], outputs: [out], outGrads: [g], attrs: { approximate: act === 'gelu_tanh' }, needsGrad: [true] }, ops)[0] as T;
  }
  const xs = k.shape(x!), n = k.shape(dz).at(-1)!;
  let dx: T | null = null, dy: T | null = null;
  // op(x)^T dz and dz op(y)^T, with x's leading dims folded into rows.
  if (needsGrad[0]) dx = tx ? k.op('matmul', [y!, dz], { transpose_x: ty, transpose_y: true }) : k.op('matmul', [dz, y!], { transpose_y: !ty });
  if (needsGrad[1]) {
    const x2 = tx ? x! : k.reshape(x!, [xs.slice(0, -1).reduce((a, b) => a * b, 1), xs[xs.length - 1]]), dz2 = k.reshape(dz, [k.shape(dz).slice(0, -1).reduce((a, b) => a * b, 1), n]);
    dy = ty ? k.op('matmul', [dz2, x2], { transpose_x: true, transpose_y: tx }) : k.op('matmul', [x2, dz2], { transpose_x: !tx });
  }
  const db = needsGrad[2] ? k.sumTo(dz, k.shape(bias!)) : null;
  return [dx, dy, db];
}

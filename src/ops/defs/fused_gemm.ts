// fused_gemm_epilogue (Paddle's fused op): act(op(x) @ op(y) + bias) in one kernel. Not public
// API: the inference pipeline's fusion pass (src/passes/fuse_gemm.ts) makes it from
// matmul + add (+ relu/gelu). Native: native/kernels/fused_gemm.cc. No grad rule, which is why
// the training pipeline does not run that fusion.
import { registerOp } from '../registry.js';
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
});

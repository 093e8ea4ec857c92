// fused_conv2d_add_act (Paddle's fused op, from its conv2d_add_act_fuse_pass):
// act(conv2d(x, weight) + bias + residual_data) in one kernel. Not public API: the inference
// pipeline's fusion pass (src/passes/fuse_conv_act.ts) makes it from conv2d (whose optional bias
// is what conv+bn folding leaves) followed by relu / relu6 / hardswish, and from a ResNet block's
// relu(conv2d(...) + residual). Same attributes as conv2d plus `activation`; the native kernel
// (native/kernels/nn_conv.cc, shared with conv2d) applies bias and activation to each output
// block while it is still in cache; with a residual, the conv keeps its bias only and one
// streaming pass then adds the residual and activates (faster than the GEMM epilogue reading it,
// by measurement). Differentiable through conv2d's, add's and the activation's rules.
import { getOp, registerOp } from '../registry.js';
import type { Attrs, GradContext, OpDef, TensorMeta } from '../types.js';
import type { GradOps } from '../grad_kit.js';
import { conv2d } from './nn_conv.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';

const OP = 'fused_conv2d_add_act';
/** Activation names and their kernel codes (enum ConvAct in nn_conv.cc); 'identity' is none. */
export const CONV_ACTIVATIONS: Readonly<Record<string, number>> = { identity: 0, relu: 1, relu6: 2, hardswish: 3 };

function activationCode(a: Attrs): number {
  const act = String(a.activation);
  if (!(act in CONV_ACTIVATIONS)) throw new TypeError(`${OP}: activation must be one of ${Object.keys(CONV_ACTIVATIONS).join(', ')}, got '${act}'`);
  return CONV_ACTIVATIONS[act];
}

/** conv2d's checks, with the fused op's name in front of its messages. */
function asFused<R>(f: () => R): R {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    const E = e.constructor as new (m: string) => Error;
    throw new E(`${OP}: ${e.message}`);
  }
}

export const fusedConv2dAddAct = registerOp({
  name: OP,
  // residual_data: Paddle's fourth input, same shape and dtype as the output (added before act).
  inputs: [{ name: 'x' }, { name: 'weight' }, { name: 'bias', optional: true }, { name: 'residual_data', optional: true }],
  attrs: [...conv2d.attrs, { name: 'activation', type: 'str', default: 'identity' }],
  outputs: ['out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    activationCode(a);
    const x = ins[0]!;
    if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${OP}: unsupported dtype ${x.dtype} (float32 or float64)`);
    const outs = asFused(() => conv2d.infer(ins.slice(0, 3) as readonly TensorMeta[], a));
    const r = ins[3];
    if (r) {
      const y = outs[0];
      // Symbolic dims are not compared (a program's private symbols differ); the kernel checks sizes.
      if (r.dtype !== y.dtype || r.shape.length !== y.shape.length || r.shape.some((d, i) => typeof d === 'number' && typeof y.shape[i] === 'number' && d !== y.shape[i]))
        throw new ShapeError(`${OP}: residual_data must match the output ${y.dtype}${shapeStr(y.shape)}, got ${r.dtype}${shapeStr(r.shape)}`);
    }
    return outs;
  },
  /** conv2d's layout, then [activation code, hasResidual]. */
  encode: (a, ins) => [...asFused(() => conv2d.encode!(a, ins)), activationCode(a), ins[3] ? 1 : 0],
  api: { names: [], methods: [] },
  gradReads: { inputs: [0, 1, 2, 3], outputs: [0] },
  grad: convActGrad as OpDef['grad'],
});

/** z = conv2d(x, w, b) + residual, out = act(z): dz from the activation's own rule, then conv2d's; the residual's is dz. */
function convActGrad<T>(ctx: GradContext<T>, ops: GradOps<T>): (T | null)[] {
  const { inputs, outputs: [out], outGrads: [g], attrs, needsGrad } = ctx;
  const act = String(attrs.activation);
  const convAttrs = Object.fromEntries(conv2d.attrs.map((d) => [d.name, attrs[d.name]])) as Attrs;
  const res = inputs[3] ?? null;
  let dz: T = g!;
  if (act !== 'identity') {
    let z = ops.run('conv2d', [inputs[0]!, inputs[1]!, inputs[2] ?? null], convAttrs)[0];
    if (res) z = ops.run('add', [z, res], {})[0];
    const def = getOp(act);
    const actAttrs = Object.fromEntries(def.attrs.map((d) => [d.name, d.default])) as Attrs;
    dz = def.grad!<T>({ inputs: [z], outputs: [out], outGrads: [g], attrs: actAttrs, needsGrad: [true] }, ops)[0] as T;
  }
  const convIns = inputs.slice(0, 3);
  const grads = conv2d.grad!<T>({ inputs: convIns, outputs: [out], outGrads: [dz], attrs: convAttrs, needsGrad: needsGrad.slice(0, 3) }, ops);
  return [...grads, res && needsGrad[3] ? dz : null];
}

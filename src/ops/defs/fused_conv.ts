// fused_conv2d_add_act (Paddle's fused op, from its conv2d_add_act_fuse_pass):
// act(conv2d(x, weight) + bias) in one kernel. Not public API: the inference pipeline's
// fusion pass (src/passes/fuse_conv_act.ts) makes it from conv2d (whose optional bias is what
// conv+bn folding leaves) followed by relu / relu6 / hardswish. Same attributes as conv2d plus
// `activation`; the native kernel (native/kernels/nn_conv.cc, shared with conv2d) applies bias
// and activation to each output block while it is still in cache, in the regular (im2col +
// GEMM) and the depthwise paths. Differentiable through conv2d's and the activation's rules.
import { getOp, registerOp } from '../registry.js';
import type { Attrs, GradContext, OpDef, TensorMeta } from '../types.js';
import type { GradOps } from '../grad_kit.js';
import { conv2d } from './nn_conv.js';

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
  inputs: [{ name: 'x' }, { name: 'weight' }, { name: 'bias', optional: true }],
  attrs: [...conv2d.attrs, { name: 'activation', type: 'str', default: 'identity' }],
  outputs: ['out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    activationCode(a);
    const x = ins[0]!;
    if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${OP}: unsupported dtype ${x.dtype} (float32 or float64)`);
    return asFused(() => conv2d.infer(ins as readonly TensorMeta[], a));
  },
  encode: (a, ins) => [...asFused(() => conv2d.encode!(a, ins)), activationCode(a)],
  api: { names: [], methods: [] },
  gradReads: { inputs: [0, 1, 2], outputs: [0] },
  grad: convActGrad as OpDef['grad'],
});

/** z = conv2d(x, w, b), out = act(z): dz from the activation's own rule, then conv2d's. */
function convActGrad<T>(ctx: GradContext<T>, ops: GradOps<T>): (T | null)[] {
  const { inputs, outputs: [out], outGrads: [g], attrs, needsGrad } = ctx;
  const act = String(attrs.activation);
  const convAttrs = Object.fromEntries(conv2d.attrs.map((d) => [d.name, attrs[d.name]])) as Attrs;
  let dz: T = g!;
  if (act !== 'identity') {
    const z = ops.run('conv2d', [inputs[0]!, inputs[1]!, inputs[2] ?? null], convAttrs)[0];
    const def = getOp(act);
    const actAttrs = Object.fromEntries(def.attrs.map((d) => [d.name, d.default])) as Attrs;
    dz = def.grad!<T>({ inputs: [z], outputs: [out], outGrads: [g], attrs: actAttrs, needsGrad: [true] }, ops)[0] as T;
  }
  return conv2d.grad!<T>({ inputs, outputs: [out], outGrads: [dz], attrs: convAttrs, needsGrad }, ops);
}

// Gradient rules of conv1d, conv3d and conv{1,2,3}d_transpose (nn_conv_more.ts), with public ops
// through GradKit, so they are differentiable again. A transposed convolution is the adjoint of
// the convolution with the same weight, stride, padding, dilation and groups, so each family's
// input gradient is the other op:
//   conv:            dx = conv_transpose(g, w, output_size = x's size)
//   conv_transpose:  dx = conv(g, w)   (cropped when output_padding reached past a stride)
// Both weight gradients are one correlation (weightGrad): for conv, of the padded input with g;
// for conv_transpose, of the padded g with x (the roles the adjoint conv gives them).
// Rules work channel-first; channel-last tensors are transposed in and the result back out.
import { type GradKit, kit } from '../grad_kit.js';
import type { Attrs, OpDef } from '../types.js';
import { FORMATS, paddingNd, samePads, tupleN } from './nn_window.js';

const pos = (n: number) => n > 0;
const CONV: Record<number, string> = { 1: 'conv1d', 2: 'conv2d', 3: 'conv3d' };
const CONV_T: Record<number, string> = { 1: 'conv1d_transpose', 2: 'conv2d_transpose', 3: 'conv3d_transpose' };
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

/** Stride, dilation and explicit [before, after] pads per dim as the kernel applies them. */
function geometry(op: string, a: Attrs, nd: number, inSp: readonly number[], ks: readonly number[]) {
  const channelLast = a.data_format === FORMATS[nd][1];
  const stride = tupleN(op, 'stride', a.stride, nd, pos, 'positive');
  let dil = tupleN(op, 'dilation', a.dilation, nd, pos, 'positive');
  const pad = paddingNd(op, a.padding, nd, channelLast);
  let pads = [...pad.pads];
  if (pad.algo === 'VALID') pads = pads.map(() => 0);
  if (pad.algo === 'SAME') {
    // Paddle computes SAME pads from the op's input size and then ignores dilation.
    pads = inSp.flatMap((d, i) => samePads(d, ks[i], stride[i]));
    dil = dil.map(() => 1);
  }
  return { channelLast, stride, dil, pads, groups: a.groups as number };
}

const toFirst = <T>(k: GradKit<T>, t: T, nd: number) => k.transpose(t, [0, nd + 1, ...range(1, nd + 1)]);
const toLast = <T>(k: GradKit<T>, t: T, nd: number) => k.transpose(t, [0, ...range(2, nd + 2), 1]);

/** Keeps the first `sizes` elements of the spatial dims (no-op when they already fit). */
function cropTo<T>(k: GradKit<T>, t: T, sizes: readonly number[]): T {
  const s = k.shape(t).slice(2);
  if (s.every((d, i) => d === sizes[i])) return t;
  return k.op('slice', [t], { axes: range(2, 2 + sizes.length), starts: sizes.map(() => 0), ends: [...sizes] });
}

/**
 * d weight of a convolution out = conv(inp, w) (channel-first, w [Co, Cg, ks]) given dout:
 * batch and channels trade places, so a convolution of the padded input with dout as the kernel
 * (stride = the forward's dilation, dilation = the forward's stride) sums over the batch; per
 * group, the input's channels become the batch and the group's N images its input channels.
 */
function weightGrad<T>(k: GradKit<T>, nd: number, inp: T, dout: T, wShape: readonly number[], stride: number[], dil: number[], pads: number[], groups: number): T {
  const [N] = k.shape(inp);
  // An empty batch contributes nothing (and reshape would read a 0 in the target as "keep").
  if (N === 0) return k.full(wShape, 0, k.dtype(inp));
  const [Co, Cg] = wShape;
  const ks = wShape.slice(2);
  const osp = k.shape(dout).slice(2);
  const xp = pads.some((p) => p !== 0) ? k.op('pad', [inp], { pad: [0, 0, 0, 0, ...pads] }) : inp;
  const spp = k.shape(xp).slice(2);
  const sp = range(3, 3 + nd);
  const xb = k.reshape(k.transpose(k.reshape(xp, [N, groups, Cg, ...spp]), [2, 1, 0, ...sp]), [Cg, groups * N, ...spp]);
  const gk = k.reshape(k.transpose(k.reshape(dout, [N, groups, Co / groups, ...osp]), [1, 2, 0, ...sp]), [Co, N, ...osp]);
  const r = k.op(CONV[nd], [xb, gk, null], { stride: dil, padding: 0, dilation: stride, groups, data_format: FORMATS[nd][0] });
  return k.transpose(cropTo(k, r, ks), [1, 0, ...range(2, 2 + nd)]);
}

const biasGrad = <T>(k: GradKit<T>, g: T) => k.sum(g, [0, ...range(2, k.rank(g))]);

/**
 * What the conv and conv_transpose rules both start from: x and g channel-first, the weight
 * shape, x's spatial size and the kernel's geometry (one place, so the two adjoints agree).
 */
function gradOperands<T>(k: GradKit<T>, op: string, nd: number, attrs: Attrs, x0: T, g0: T, w: T) {
  const cl = attrs.data_format === FORMATS[nd][1];
  const x = cl ? toFirst(k, x0, nd) : x0;
  const g = cl ? toFirst(k, g0, nd) : g0;
  const ws = k.shape(w);
  const sp = k.shape(x).slice(2);
  return { cl, x, g, ws, sp, ...geometry(op, attrs, nd, sp, ws.slice(2)) };
}

function convGrad(nd: 1 | 3): OpDef['grad'] {
  const op = CONV[nd];
  return ({ inputs: [x0, w, b], outGrads: [g0], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const { cl, x, g, ws, sp, stride, dil, pads, groups } = gradOperands(k, op, nd, attrs, x0!, g0!, w!);
    let dx: typeof x0 = null;
    if (needsGrad[0]) {
      dx = k.op(CONV_T[nd], [g, w, null], { stride, padding: pads, output_padding: 0, dilation: dil, groups, output_size: sp, data_format: FORMATS[nd][0] });
      if (cl) dx = toLast(k, dx, nd);
    }
    const dw = needsGrad[1] ? weightGrad(k, nd, x, g, ws, stride, dil, pads, groups) : null;
    const db = b && needsGrad[2] ? biasGrad(k, g) : null;
    return [dx, dw, db];
  };
}

function convTransposeGrad(nd: 1 | 2 | 3): OpDef['grad'] {
  const op = CONV_T[nd];
  return ({ inputs: [x0, w, b], outGrads: [g0], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const { cl, x, g, ws, sp, stride, dil, pads, groups } = gradOperands(k, op, nd, attrs, x0!, g0!, w!);
    let dx: typeof x0 = null;
    if (needsGrad[0]) {
      dx = cropTo(k, k.op(CONV[nd], [g, w, null], { stride, padding: pads, dilation: dil, groups, data_format: FORMATS[nd][0] }), sp);
      if (cl) dx = toLast(k, dx, nd);
    }
    // out = conv^T(x, w) with w read as a conv weight [Cin, Cout/groups, ks] taking g to x.
    const dw = needsGrad[1] ? weightGrad(k, nd, g, x, ws, stride, dil, pads, groups) : null;
    const db = b && needsGrad[2] ? biasGrad(k, g) : null;
    return [dx, dw, db];
  };
}

const reads = { inputs: [0, 1] };
export const CONV_MORE_GRADS: Readonly<Record<string, Pick<OpDef, 'grad' | 'gradReads'>>> = {
  conv1d: { grad: convGrad(1), gradReads: reads },
  conv3d: { grad: convGrad(3), gradReads: reads },
  conv1d_transpose: { grad: convTransposeGrad(1), gradReads: reads },
  conv2d_transpose: { grad: convTransposeGrad(2), gradReads: reads },
  conv3d_transpose: { grad: convTransposeGrad(3), gradReads: reads },
};

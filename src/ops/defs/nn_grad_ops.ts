// Backward ops with kernels of their own, for forwards whose adjoint no public op computes in one
// pass (Paddle has them as pool{1,2,3}d_grad and {nearest,linear,...}_interp_v2_grad):
//   avg_pool_grad(out_grad, x_shape, kernel_size=None, ...): spreads each average-pool window's
//     gradient share over the input cells the window read (adaptive windows when kernel_size is
//     None). Native: native/kernels/nn_pool_grad.cc (same attribute layout as the forward pool).
//   interpolate_grad(out_grad, x_shape, size, scale_factor, mode, ...): scatters every output
//     gradient to the taps interpolate read, with the same weights. Native: nn_interp.cc.
// Both are linear in out_grad, so their own gradient is the forward op again (second order).
// Internal ops (no public names): the pool and interpolate grad rules call them.
import { isFloating } from '../../tensor/dtype.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';
import { INTERP_ATTRS, resolve } from './nn_interp.js';
import { checkX, encodeWindow, windowInfer } from './nn_pool_more.js';
import { dataFormatNd, FORMATS, splitDims } from './nn_window.js';

/** x_shape: the forward input's static shape, rank 3-5 with positive dims past the batch. */
function xShape(op: string, a: Attrs, dtype: TensorMeta['dtype']): TensorMeta {
  const s = a.x_shape as unknown;
  if (!Array.isArray(s) || s.length < 3 || s.length > 5 || !s.every((d) => Number.isInteger(d) && d >= 0))
    throw new ShapeError(`${op}: x_shape must be the forward input's shape (3 to 5 non-negative ints), got ${JSON.stringify(s)}`);
  return { dtype, shape: [...(s as number[])] };
}

function sameShape(op: string, g: TensorMeta, want: readonly unknown[], what: string) {
  if (g.shape.length !== want.length || g.shape.some((d, i) => typeof d === 'number' && typeof want[i] === 'number' && d !== want[i]))
    throw new ShapeError(`${op}: out_grad shape ${shapeStr(g.shape)} does not match the forward output ${shapeStr(want as number[])} ${what}`);
}

const AVG = 'avg_pool_grad';
const avgNd = (a: Attrs) => (a.x_shape as number[]).length - 2;
const isAdaptive = (a: Attrs) => a.kernel_size === null || a.kernel_size === undefined;
const fmtOf = (a: Attrs) => (a.data_format === null || a.data_format === undefined ? FORMATS[avgNd(a)][0] : a.data_format);

export const avg_pool_grad = registerOp({
  name: AVG,
  inputs: [{ name: 'out_grad' }],
  attrs: [
    { name: 'x_shape', type: 'int[]' },
    { name: 'kernel_size', type: 'int[]', default: null },
    { name: 'stride', type: 'int[]', default: null },
    { name: 'padding', type: 'int[]', default: 0 },
    { name: 'ceil_mode', type: 'bool', default: false },
    { name: 'exclusive', type: 'bool', default: true },
    { name: 'divisor_override', type: 'float', default: null },
    { name: 'data_format', type: 'str', default: null },
  ],
  outputs: ['x_grad'],
  infer: ([g], a) => {
    if (!isFloating(g.dtype)) throw new TypeError(`${AVG}: expected a floating-point out_grad, got ${g.dtype}`);
    const x = xShape(AVG, a, g.dtype);
    const nd = x.shape.length - 2;
    const cl = dataFormatNd(AVG, fmtOf(a), nd);
    const d = a.divisor_override;
    if (d !== null && d !== undefined && (typeof d !== 'number' || d === 0 || !Number.isFinite(d))) throw new RangeError(`${AVG}: divisor_override must be a nonzero number, got ${JSON.stringify(d)}`);
    if (isAdaptive(a)) {
      const { n, c, sp } = checkX(AVG, x, nd, cl);
      if (g.shape.length !== nd + 2) throw new ShapeError(`${AVG}: out_grad should be ${nd + 2}-D like x ${shapeStr(x.shape)}, got ${shapeStr(g.shape)}`);
      const gs = splitDims(g.shape, cl);
      sameShape(AVG, g, cl ? [n, ...gs.sp, c] : [n, c, ...gs.sp], `(batch and channels of x ${shapeStr(x.shape)})`);
      if (gs.sp.some((o, i) => typeof o === 'number' && (o <= 0 && (sp[i] as number) > 0))) throw new ShapeError(`${AVG}: adaptive output sizes must be positive, got out_grad ${shapeStr(g.shape)}`);
    } else {
      sameShape(AVG, g, windowInfer(AVG, nd, x, { ...a, data_format: fmtOf(a) }).shape, `for x ${shapeStr(x.shape)}`);
    }
    return [x];
  },
  /** The forward pool's layout (nn_pool_more.ts encodeWindow); adaptive: window slots unused. */
  encode: (a) => {
    const nd = avgNd(a);
    const cl = dataFormatNd(AVG, fmtOf(a), nd);
    if (isAdaptive(a)) return [nd, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, cl ? 1 : 0, 1, NaN, 0];
    const d = a.divisor_override;
    return encodeWindow(AVG, nd, false, { ...a, data_format: fmtOf(a) }, Boolean(a.exclusive), d === null || d === undefined ? NaN : (d as number), false);
  },
  gradReads: {},
  // Linear in out_grad: its adjoint is the forward average pool.
  grad: ({ inputs: [g], outGrads: [gg], attrs }, ops) => {
    const k = kit(ops);
    const nd = avgNd(attrs);
    const fmt = fmtOf(attrs);
    const cl = dataFormatNd(AVG, fmt, nd);
    // The 1-D pools have no data_format: an NLC gradient is pooled as NCL between transposes.
    const flip = nd === 1 && cl;
    const t = flip ? k.transpose(gg!, [0, 2, 1]) : gg!;
    let r;
    if (isAdaptive(attrs)) {
      const sp = splitDims(k.shape(g!), cl).sp;
      r = k.op(`adaptive_avg_pool${nd}d`, [t], nd > 1 ? { output_size: sp, data_format: fmt } : { output_size: sp });
    } else {
      const w: Attrs = { kernel_size: attrs.kernel_size, stride: attrs.stride, padding: attrs.padding, ceil_mode: attrs.ceil_mode, exclusive: attrs.exclusive };
      if (nd > 1) Object.assign(w, { divisor_override: attrs.divisor_override, data_format: fmt });
      r = k.op(`avg_pool${nd}d`, [t], w);
    }
    return [flip ? k.transpose(r, [0, 2, 1]) : r];
  },
  api: { names: [] },
});

const INTERP = 'interpolate_grad';

/** interpolate's attribute checks, with errors naming this op. */
function resolveAs(a: Attrs, x: TensorMeta) {
  try {
    return resolve(a, x);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('interpolate: ')) e.message = `${INTERP}: ${e.message.slice(13)}`;
    throw e;
  }
}

export const interpolate_grad = registerOp({
  name: INTERP,
  inputs: [{ name: 'out_grad' }],
  attrs: [
    { name: 'x_shape', type: 'int[]' },
    ...INTERP_ATTRS,
  ],
  outputs: ['x_grad'],
  infer: ([g], a) => {
    if (!isFloating(g.dtype)) throw new TypeError(`${INTERP}: expected a floating-point out_grad, got ${g.dtype}`);
    const x = xShape(INTERP, a, g.dtype);
    sameShape(INTERP, g, resolveAs(a, x).shape, `for x ${shapeStr(x.shape)}`);
    return [x];
  },
  /** interpolate's layout: [nd, mode, align_corners, align_mode, channelLast, scale0..2]. */
  encode: (a, [g]) => {
    const r = resolveAs(a, xShape(INTERP, a, g.dtype));
    const MODES: Record<string, number> = { nearest: 0, linear: 1, bilinear: 1, trilinear: 1, bicubic: 2, area: 3 };
    return [r.nd, MODES[r.mode], r.alignCorners ? 1 : 0, r.alignMode, r.channelLast ? 1 : 0, ...new Array<number>(3 - r.nd).fill(0), ...r.scales];
  },
  gradReads: {},
  // Linear in out_grad: its adjoint is interpolate itself with the same size/scale attributes.
  grad: ({ outGrads: [gg], attrs }, ops) => {
    const { x_shape: _x, ...fwd } = attrs;
    return [kit(ops).op('interpolate', [gg], fwd)];
  },
  api: { names: [] },
});

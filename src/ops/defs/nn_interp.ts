// F.interpolate / F.upsample (Paddle 2.6): x 3-D/4-D/5-D, size or scale_factor, modes nearest,
// linear (3-D), bilinear / bicubic (4-D), trilinear (5-D) and area (adaptive average pooling);
// align_corners (not with nearest) and align_mode (0: half-pixel source indices, 1: o * ratio)
// as Paddle defines them. Paddle has one op per mode (bilinear_interp, ...); here one op with
// both public names. Native: native/kernels/nn_interp.cc.
import { isFloating } from '../../tensor/dtype.js';
import { type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrSpec, TensorMeta } from '../types.js';
import { FORMATS, joinDims, pad3, splitDims } from './nn_window.js';
import { NN_MISC_GRADS } from './nn_misc_grad.js';

const MODES: Record<string, number> = { nearest: 0, linear: 1, bilinear: 1, trilinear: 1, bicubic: 2, area: 3 };
const RANKS: Record<string, number[]> = { nearest: [3, 4, 5], linear: [3], bilinear: [4], bicubic: [4], trilinear: [5], area: [3, 4, 5] };
const OP = 'interpolate';

export function resolve(a: Attrs, x: TensorMeta) {
  const rank = x.shape.length;
  if (rank < 3 || rank > 5) throw new ShapeError(`${OP}: input should be a 3-D, 4-D or 5-D tensor, got shape ${shapeStr(x.shape)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`${OP}: expected a floating-point input, got ${x.dtype}`);
  const nd = rank - 2;
  const mode = typeof a.mode === 'string' ? a.mode.toLowerCase() : '';
  if (!(mode in MODES)) throw new RangeError(`${OP}: The 'resample' of image_resize can only be 'area', 'linear', 'bilinear', 'trilinear', 'bicubic' or 'nearest' currently, got ${JSON.stringify(a.mode)}`);
  if (!RANKS[mode].includes(rank)) throw new ShapeError(`${OP}: mode '${mode}' needs a ${RANKS[mode].map((r) => `${r}-D`).join(' or ')} input, got shape ${shapeStr(x.shape)}`);
  const fmts = nd === 1 ? ['NCW', 'NWC'] : [...FORMATS[nd]];
  const fmt = a.data_format === null || a.data_format === undefined ? fmts[0] : a.data_format;
  if (!fmts.includes(fmt as string)) throw new RangeError(`${OP}: data_format must be '${fmts[0]}' or '${fmts[1]}' for a ${rank}-D input, got ${JSON.stringify(a.data_format)}`);
  const channelLast = fmt === fmts[1];
  const alignCorners = Boolean(a.align_corners);
  if (alignCorners && mode === 'nearest') throw new RangeError(`${OP}: The 'align_corners' option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear`);
  const alignMode = a.align_mode as number;
  if (alignMode !== 0 && alignMode !== 1) throw new RangeError(`${OP}: align_mode can only be 0 or 1, got ${JSON.stringify(a.align_mode)}`);
  const hasSize = a.size !== null && a.size !== undefined, hasScale = a.scale_factor !== null && a.scale_factor !== undefined;
  if (hasSize && hasScale) throw new RangeError(`${OP}: Only one of size or scale_factor should be defined.`);
  if (!hasSize && !hasScale) throw new RangeError(`${OP}: One of size and scale_factor must not be None.`);
  const { n, c, sp } = splitDims(x.shape, channelLast);
  let out: Dim[];
  let scales = new Array<number>(nd).fill(0);
  if (hasSize) {
    const v = a.size as unknown;
    const list = typeof v === 'number' ? new Array(nd).fill(v) : Array.isArray(v) ? v : null;
    if (!list || list.length !== nd || !list.every((d) => Number.isInteger(d) && d > 0))
      throw new RangeError(`${OP}: size must be a positive int or a list of ${nd} positive ints for a ${rank}-D input, got ${JSON.stringify(v)}`);
    out = list as number[];
  } else {
    const v = a.scale_factor as unknown;
    const list = typeof v === 'number' ? new Array(nd).fill(v) : Array.isArray(v) ? v : null;
    if (!list || list.length !== nd || !list.every((d) => typeof d === 'number' && Number.isFinite(d)))
      throw new RangeError(`${OP}: scale_factor must be a number or a list of ${nd} numbers for a ${rank}-D input, got ${JSON.stringify(v)}`);
    if (list.some((d) => d <= 0)) throw new RangeError(`${OP}: Attr(scale) should be greater than zero, got ${JSON.stringify(v)}`);
    scales = (list as number[]).map(Math.fround);
    out = sp.map((d, i) => {
      if (typeof d !== 'number') throw new ShapeError(`${OP}: scale_factor needs static spatial dims, got x ${shapeStr(x.shape)}`);
      const o = Math.floor(Math.fround(d * scales[i]));
      if (o <= 0) throw new ShapeError(`${OP}: output size ${o} along dim ${i} must be positive (input ${d}, scale_factor ${list[i]})`);
      return o;
    });
  }
  return { nd, mode, channelLast, alignCorners, alignMode, scales, shape: joinDims(n, c, out, channelLast) };
}

/** interpolate's attributes in Paddle's order; interpolate_grad (nn_grad_ops.ts) takes the same ones after x_shape, so its kernel decodes them identically. */
export const INTERP_ATTRS: readonly AttrSpec[] = [
    { name: 'size', type: 'int[]', default: null },
    { name: 'scale_factor', type: 'float[]', default: null },
    { name: 'mode', type: 'str', default: 'nearest' },
    { name: 'align_corners', type: 'bool', default: false },
    { name: 'align_mode', type: 'int', default: 0 },
    { name: 'data_format', type: 'str', default: null },
];

/**
 * F.interpolate(x, size=None, scale_factor=None, mode='nearest', align_corners=False,
 * align_mode=0, data_format=None) (data_format None: NCW / NCHW / NCDHW by rank).
 */
export const interpolate = registerOp({
  name: 'interpolate',
  inputs: [{ name: 'x' }],
  attrs: [...INTERP_ATTRS],
  outputs: ['out'],
  infer: (ins, a) => {
    const r = resolve(a, ins[0]);
    return [{ dtype: ins[0].dtype, shape: r.shape }];
  },
  /** [nd, mode (0 nearest, 1 linear, 2 cubic, 3 area), align_corners, align_mode, channelLast, scale0..2] */
  encode: (a, ins) => {
    const r = resolve(a, ins[0]);
    return [r.nd, MODES[r.mode], r.alignCorners ? 1 : 0, r.alignMode, r.channelLast ? 1 : 0, ...pad3(r.scales, 0)];
  },
  ...NN_MISC_GRADS.interpolate,  // nn_misc_grad.ts
  api: { names: ['nn.functional.interpolate', 'nn.functional.upsample'] },
});

// conv1d, conv3d and conv{1,2,3}d_transpose with Paddle 2.6's F.* signatures. Paddle lowers
// conv1d to conv2d over an unsqueezed dim; here each public function is its own op over one
// generic native path (native/kernels/nn_conv_more.cc: im2col + packed GEMM; transposes as
// GEMM + col2im). Layouts NCL/NLC, NCDHW/NDHWC (NCHW/NHWC for conv2d_transpose).
// Attribute layout shared by all five kernels:
//   [nd, s0, s1, s2, d0, d1, d2, groups, padAlgo, p0a, p0b, p1a, p1b, p2a, p2b, channelLast, hasBias]
// (spatial slots right-aligned; transposes read their output size from the allocated output).
import { isFloating } from '../../tensor/dtype.js';
import { type Dim, dimAdd, dimMul, ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrSpec, TensorMeta } from '../types.js';
import { PAD_ALGO_CODE, windowOut } from './nn_util.js';
import { CONV_MORE_GRADS } from './nn_conv_grad.js';
import { dataFormatNd, FORMATS, joinDims, pad3, paddingNd, samePads, splitDims, tupleN } from './nn_window.js';

const pos = (n: number) => n > 0;
const DIM_NAMES: Record<number, string[]> = { 1: ['length'], 2: ['height', 'width'], 3: ['depth', 'height', 'width'] };

function convAttrs(op: string, a: Attrs, nd: number) {
  const channelLast = dataFormatNd(op, a.data_format, nd);
  const stride = tupleN(op, 'stride', a.stride, nd, pos, 'positive');
  const dilation = tupleN(op, 'dilation', a.dilation, nd, pos, 'positive');
  const pad = paddingNd(op, a.padding, nd, channelLast);
  const groups = a.groups as number;
  if (!Number.isInteger(groups) || groups <= 0) throw new RangeError(`${op}: The groups of ${op} should be greater than 0. Received groups: ${a.groups}`);
  return { channelLast, stride, dilation, pad, groups };
}

function encodeConv(op: string, nd: number) {
  return (a: Attrs, ins: readonly TensorMeta[]) => {
    const { channelLast, stride, dilation, pad, groups } = convAttrs(op, a, nd);
    const pads = [...new Array<number>(2 * (3 - nd)).fill(0), ...pad.pads];
    return [nd, ...pad3(stride, 1), ...pad3(dilation, 1), groups, PAD_ALGO_CODE[pad.algo], ...pads, channelLast ? 1 : 0, ins[2] ? 1 : 0];
  };
}

/** Checks shared by the forward and transposed convolutions; returns the split input dims. */
function checkInputs(op: string, ins: readonly (TensorMeta | null)[], nd: number, channelLast: boolean, groups: number, transpose: boolean) {
  const [x, w, b] = ins as [TensorMeta, TensorMeta, TensorMeta | null];
  if (x.shape.length !== nd + 2) throw new ShapeError(`${op}: Input x should be ${nd + 2}D tensor, but received x with the shape of ${shapeStr(x.shape)}`);
  if (w.shape.length !== nd + 2) throw new ShapeError(`${op}: weight should be a ${nd + 2}D tensor [${transpose ? 'in_channels, out_channels/groups' : 'out_channels, in_channels/groups'}, ${DIM_NAMES[nd].map((s) => 'k' + s[0]).join(', ')}], got shape ${shapeStr(w.shape)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point input, got ${x.dtype}`);
  if (w.dtype !== x.dtype) throw new TypeError(`${op}: x and weight have different dtypes ${x.dtype} and ${w.dtype}`);
  const { n, c, sp } = splitDims(x.shape, channelLast);
  const ks = w.shape.slice(2);
  if (!ks.every((k): k is number => typeof k === 'number')) throw new ShapeError(`${op}: weight spatial dims must be static, got ${shapeStr(w.shape)}`);
  if (ks.some((k) => k <= 0)) throw new ShapeError(`${op}: weight spatial size must be positive, got weight ${shapeStr(w.shape)}`);
  if (typeof c === 'number' && c % groups !== 0) throw new ShapeError(`${op}: the channel of input must be divisible by groups, received: the channel of input is ${c}, the shape of input is ${shapeStr(x.shape)}, the groups is ${groups}`);
  let cout: Dim;
  if (!transpose) {
    const [co, cg] = w.shape;
    if (typeof c === 'number' && typeof cg === 'number' && cg * groups !== c) throw new ShapeError(`${op}: input channels ${c} do not match weight ${shapeStr(w.shape)} with groups ${groups}`);
    if (typeof co === 'number' && co % groups !== 0) throw new ShapeError(`${op}: the number of filters must be divisible by groups, received: the number of filters is ${co}, the groups is ${groups}`);
    cout = co;
  } else {
    const [ci, og] = w.shape;
    if (typeof c === 'number' && typeof ci === 'number' && ci !== c) throw new ShapeError(`${op}: input channels ${c} do not match weight ${shapeStr(w.shape)} (weight dim 0 must equal the input channels)`);
    cout = dimMul(og, groups);
  }
  if (b) {
    if (b.shape.length !== 1 || (typeof cout === 'number' && typeof b.shape[0] === 'number' && b.shape[0] !== cout))
      throw new ShapeError(`${op}: bias must have shape [${cout}] (out_channels), got ${shapeStr(b.shape)}`);
    if (b.dtype !== x.dtype) throw new TypeError(`${op}: bias dtype ${b.dtype} differs from input dtype ${x.dtype}`);
  }
  return { x, n, sp, ks: ks as number[], cout };
}

const CONV_ATTRS = (fmt: string): AttrSpec[] => [
  { name: 'stride', type: 'int[]', default: 1 },
  // int | list | nested list | 'SAME' | 'VALID' (see nn_window.paddingNd)
  { name: 'padding', type: 'int[]', default: 0 },
  { name: 'dilation', type: 'int[]', default: 1 },
  { name: 'groups', type: 'int', default: 1 },
  { name: 'data_format', type: 'str', default: fmt },
];

function convOp(nd: 1 | 3) {
  const op = `conv${nd}d`;
  return registerOp({
    name: op,
    inputs: [{ name: 'x' }, { name: 'weight' }, { name: 'bias', optional: true }],
    attrs: CONV_ATTRS(FORMATS[nd][0]),
    outputs: ['out'],
    infer: (ins: readonly (TensorMeta | null)[], a) => {
      const { channelLast, stride, dilation, pad, groups } = convAttrs(op, a, nd);
      const { x, n, sp, ks, cout } = checkInputs(op, ins, nd, channelLast, groups, false);
      const out = sp.map((d, i) => {
        if (pad.algo === 'SAME') return windowOut(op, DIM_NAMES[nd][i], d, ks[i], stride[i], 1, 0, 0, 'SAME');
        return windowOut(op, DIM_NAMES[nd][i], d, ks[i], stride[i], dilation[i], pad.pads[2 * i], pad.pads[2 * i + 1], pad.algo);
      });
      return [{ dtype: x.dtype, shape: joinDims(n, cout, out, channelLast) }];
    },
    encode: encodeConv(op, nd),
    ...CONV_MORE_GRADS[op],  // nn_conv_grad.ts
    api: { names: [`nn.functional.${op}`] },
  });
}

/** F.conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format='NCL'). */
export const conv1d = convOp(1);
/** F.conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format='NCDHW'). */
export const conv3d = convOp(3);

/**
 * Transposed convolutions. Output size per dim: (in - 1) * s - pad_before - pad_after +
 * d * (k - 1) + 1, plus output_padding (< max(stride, dilation)); or output_size, which must lie
 * in [that, that + stride) (Paddle's ConvTransposeInferMeta). SAME computes the pads from the
 * input size as the forward conv does and drops dilation.
 */
function convTransposeOp(nd: 1 | 2 | 3) {
  const op = `conv${nd}d_transpose`;
  // Paddle 2.6: conv2d_transpose takes dilation before groups; conv1d/3d_transpose groups first.
  const dg: AttrSpec[] = nd === 2
    ? [{ name: 'dilation', type: 'int[]', default: 1 }, { name: 'groups', type: 'int', default: 1 }]
    : [{ name: 'groups', type: 'int', default: 1 }, { name: 'dilation', type: 'int[]', default: 1 }];
  return registerOp({
    name: op,
    inputs: [{ name: 'x' }, { name: 'weight' }, { name: 'bias', optional: true }],
    attrs: [
      { name: 'stride', type: 'int[]', default: 1 },
      { name: 'padding', type: 'int[]', default: 0 },
      { name: 'output_padding', type: 'int[]', default: 0 },
      ...dg,
      { name: 'output_size', type: 'int[]', default: null },
      { name: 'data_format', type: 'str', default: FORMATS[nd][0] },
    ],
    outputs: ['out'],
    infer: (ins: readonly (TensorMeta | null)[], a) => {
      const { channelLast, stride, dilation, pad, groups } = convAttrs(op, a, nd);
      const { x, n, sp, ks, cout } = checkInputs(op, ins, nd, channelLast, groups, true);
      const opad = tupleN(op, 'output_padding', a.output_padding, nd, (v) => v >= 0, 'non-negative');
      const osize = a.output_size === null || a.output_size === undefined ? null : tupleN(op, 'output_size', a.output_size, nd, pos, 'positive');
      if (osize && opad.some((v) => v !== 0)) throw new RangeError(`${op}: output_padding option is mutually exclusive with output_size`);
      const out = sp.map((d, i): Dim => {
        let p0 = pad.pads[2 * i], p1 = pad.pads[2 * i + 1], dil = dilation[i];
        if (pad.algo === 'SAME') {
          if (typeof d !== 'number') throw new ShapeError(`${op}: padding 'SAME' needs static spatial dims, got x ${shapeStr(x.shape)}`);
          [p0, p1] = samePads(d, ks[i], stride[i]);
          dil = 1;
        }
        const extra = -p0 - p1 + dil * (ks[i] - 1) + 1;
        const limit = Math.max(stride[i], dil);
        if (opad[i] >= limit) throw new RangeError(`${op}: output_padding ${JSON.stringify(a.output_padding)} must be less than the maximum of stride ${stride[i]} and dilation ${dil}`);
        if (typeof d !== 'number') {
          if (osize) return osize[i];
          return dimAdd(dimMul(dimAdd(d, -1), stride[i]), extra + opad[i]);
        }
        const base = (d - 1) * stride[i] + extra;
        if (base <= 0) throw new ShapeError(`${op}: output ${DIM_NAMES[nd][i]} would be ${base}: input size ${d} with padding ${p0 + p1} (kernel ${ks[i]}, stride ${stride[i]})`);
        if (osize) {
          if (osize[i] < base || osize[i] >= base + stride[i])
            throw new ShapeError(`${op}: output_size ${JSON.stringify(a.output_size)} must lie in [${base}, ${base + stride[i]}) for input ${shapeStr(x.shape)} along the ${DIM_NAMES[nd][i]}`);
          return osize[i];
        }
        return base + opad[i];
      });
      return [{ dtype: x.dtype, shape: joinDims(n, cout, out, channelLast) }];
    },
    encode: encodeConv(op, nd),
    ...CONV_MORE_GRADS[op],  // nn_conv_grad.ts
    api: { names: [`nn.functional.${op}`] },
  });
}

/** F.conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1, output_size=None, data_format='NCL'). */
export const conv1d_transpose = convTransposeOp(1);
/** F.conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1, output_size=None, data_format='NCHW'). */
export const conv2d_transpose = convTransposeOp(2);
/** F.conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1, output_size=None, data_format='NCDHW'). */
export const conv3d_transpose = convTransposeOp(3);

// cross_entropy: Paddle's F.cross_entropy(input, label, weight=None, ignore_index=-100,
// reduction='mean', soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0). Native:
// native/kernels/nn_loss.cc.
//
// Semantics follow Paddle 2.6's dygraph path, including its reductions:
//  - hard labels have the input's shape without the class axis, or with it of size 1; a label
//    equal to ignore_index contributes 0 (and weight 0); other labels outside [0, C) raise.
//  - 'mean' with ignore_index >= 0 divides by the count (or weight sum) of non-ignored labels;
//    with the default ignore_index (< 0) and no weight it is the plain mean over every sample;
//    with a weight it divides by the sum of the gathered weights. A zero denominator becomes 1.
//  - 'none' keeps the label's shape (soft labels: the input's with the class dim of size 1).
// With use_softmax the loss is logsumexp(x) - x[label], computed stably (Paddle takes -log of
// the softmax, which saturates at 1e20 once a probability underflows to 0); with
// use_softmax=False the input holds probabilities and log(0) is clipped to -1e20 as in Paddle.
import { isFloating, isInteger } from '../../tensor/dtype.js';
import { type Dim, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, OpDef, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';

const REDUCTIONS = ['none', 'mean', 'sum'];

function checkAttrs(a: Attrs): void {
  if (!REDUCTIONS.includes(a.reduction as string))
    throw new RangeError(`cross_entropy: The value of 'reduction' in softmax_cross_entropy should be 'sum', 'mean' or 'none', but received ${JSON.stringify(a.reduction)}, which is not allowed.`);
  if (!Number.isInteger(a.ignore_index)) throw new TypeError(`cross_entropy: ignore_index must be an integer, got ${JSON.stringify(a.ignore_index)}`);
  if ((a.ignore_index as number) > 0 && a.soft_label)
    throw new RangeError(`cross_entropy: When soft_label == True, the value of 'ignore_index' in softmax_cross_entropy should be '-100', but received ${a.ignore_index}, which is not allowed.`);
  const ls = a.label_smoothing ?? 0;
  if (typeof ls !== 'number' || !(ls >= 0 && ls <= 1)) throw new RangeError(`cross_entropy: label_smoothing must be a number in [0, 1], got ${JSON.stringify(a.label_smoothing)}`);
  // Paddle turns smoothed hard labels into soft ones (one_hot, then label_smooth): no ignore_index then
  if (ls > 0 && (a.ignore_index as number) >= 0)
    throw new RangeError(`cross_entropy: label_smoothing ${ls} makes the labels soft, so ignore_index must stay negative, got ${a.ignore_index}`);
}

const sameDim = (a: Dim, b: Dim) => a === b || typeof a !== 'number' || typeof b !== 'number';

/**
 * Gradients of cross_entropy, mirroring the forward's reductions. The class axis is moved last
 * and everything is viewed as [n, C]; `up` is each sample's share of the upstream gradient.
 * Hard labels: dx = coef * (softmax(x) - onehot(label)) with coef = up * weight[label] * (label !=
 * ignore_index); without softmax, -coef / x at the label. Soft labels: up * (softmax(x) * sum(L) - L)
 * for x and -up * log_softmax(x) for the label.
 */
const crossEntropyGrad: OpDef['grad'] = ({ inputs: [x0, label0, weight], outGrads: [g], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x0!);
  const rank = xs.length;
  const axis = normAxis(attrs.axis as number, rank, 'cross_entropy');
  const C = xs[axis];
  const n = xs.reduce((a, b) => a * b, 1) / Math.max(C, 1);
  const perm = [...xs.map((_, i) => i).filter((i) => i !== axis), axis];
  const inv = perm.map((_, i) => perm.indexOf(i));
  const toRows = (t: typeof x0) => k.reshape(axis === rank - 1 ? t! : k.transpose(t!, perm), [n, C]);
  const fromRows = (t: typeof x0) => {
    const moved = k.reshape(t!, perm.map((i) => xs[i]));
    return axis === rank - 1 ? moved : k.transpose(moved, inv);
  };
  const X = toRows(x0);
  const dt = k.dtype(x0!);
  const useSoftmax = Boolean(attrs.use_softmax);
  const reduction = attrs.reduction as string;
  const perSample = (t: typeof x0) => k.op('unsqueeze', [t], { axis: [-1] });
  const ls = (attrs.label_smoothing as number | undefined) ?? 0;
  if (attrs.soft_label || ls > 0) {
    if (weight) throw new Error(`cross_entropy: gradients with ${attrs.soft_label ? 'soft_label=True' : 'label_smoothing'} and a weight are not supported yet`);
    // A smoothed hard label is the soft label (1 - ls) onehot(y) + ls / C (Paddle 2.6's rewrite).
    const L = attrs.soft_label ? (ls > 0 ? k.scale(toRows(label0), 1 - ls, ls / C) : toRows(label0))
      : k.scale(k.cast(k.op('one_hot', [k.reshape(label0!, [n])], { num_classes: C }), dt), 1 - ls, ls / C);
    const up = reduction === 'none' ? k.reshape(g!, [n]) : k.expandTo(reduction === 'mean' ? k.scale(g!, 1 / Math.max(n, 1)) : g!, [n]);
    const u = perSample(up);
    let dx: typeof x0 = null, dl: typeof x0 = null;
    if (needsGrad[0]) {
      dx = useSoftmax
        ? k.mul(u, k.sub(k.mul(k.op('softmax', [X], { axis: -1 }), k.sum(L, [1], true)), L))
        : k.neg(k.div(k.mul(u, L), X));
      dx = fromRows(dx);
    }
    if (needsGrad[1] && attrs.soft_label) dl = fromRows(k.neg(k.mul(ls > 0 ? k.scale(u, 1 - ls) : u, useSoftmax ? k.op('log_softmax', [X], { axis: -1 }) : k.op('log', [X]))));
    return [dx, dl, null];
  }
  const lab = k.reshape(label0!, [n]);
  const ignore = attrs.ignore_index as number;
  const valid = k.cmp('not_equal', lab, k.full([], ignore, k.dtype(label0!)));
  const safe = k.where(valid, lab, k.full([], 0, k.dtype(label0!)));
  let coef = k.cast(valid, dt);
  if (weight) coef = k.mul(coef, k.op('gather', [weight, safe], { axis: 0 }));
  let up;
  if (reduction === 'none') up = k.reshape(g!, [n]);
  else if (reduction === 'sum') up = g!;
  else {
    // The forward's denominator: weight sum, count of kept labels (ignore_index >= 0), or n; 0 becomes 1.
    const den = weight || ignore >= 0 ? k.sum(coef, [0]) : k.full([], n, dt);
    const safeDen = k.where(k.cmp('equal', den, k.scalar(0, den)), k.scalar(1, den), den);
    up = k.div(g!, safeDen);
  }
  const c = perSample(k.mul(coef, up));
  const hot = k.cast(k.op('one_hot', [safe], { num_classes: C }), dt);
  const dx = useSoftmax
    ? k.mul(c, k.sub(k.op('softmax', [X], { axis: -1 }), hot))
    : k.mask(k.cmp('greater_than', hot, k.scalar(0, hot)), k.neg(k.div(c, X)));
  return [fromRows(dx), null, null];
};

export const cross_entropy = registerOp({
  name: 'cross_entropy',
  inputs: [{ name: 'input' }, { name: 'label' }, { name: 'weight', optional: true }],
  attrs: [
    { name: 'ignore_index', type: 'int', default: -100 },
    { name: 'reduction', type: 'str', default: 'mean' },
    { name: 'soft_label', type: 'bool', default: false },
    { name: 'axis', type: 'int', default: -1 },
    { name: 'use_softmax', type: 'bool', default: true },
    { name: 'label_smoothing', type: 'float', default: 0.0 },
  ],
  outputs: ['out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    checkAttrs(a);
    const [x, label, weight] = ins as [TensorMeta, TensorMeta, TensorMeta | null];
    const rank = x.shape.length;
    if (rank === 0) throw new ShapeError('cross_entropy: The dimention of input should be larger than zero!');
    if (!isFloating(x.dtype)) throw new TypeError(`cross_entropy: expected a floating-point input, got ${x.dtype}`);
    const axis = normAxis(a.axis as number, rank, 'cross_entropy');
    const lr = label.shape.length;
    if (lr !== rank && lr !== rank - 1)
      throw new ShapeError(`cross_entropy: Expected input_dims - 1 = label_dims or input_dims == label_dims (got input_dims ${rank}, label_dims ${lr})`);
    // The label as Paddle sees it after unsqueezing the class axis.
    const full = lr === rank ? label.shape : [...label.shape.slice(0, axis), 1, ...label.shape.slice(axis)];
    if (a.soft_label) {
      if (lr !== rank || !x.shape.every((d, i) => sameDim(d, label.shape[i])))
        throw new ShapeError(`cross_entropy: soft labels must have the input's shape ${shapeStr(x.shape)}, got ${shapeStr(label.shape)}`);
      if (label.dtype !== x.dtype) throw new TypeError(`cross_entropy: soft label dtype ${label.dtype} differs from input dtype ${x.dtype}`);
    } else {
      if (!isInteger(label.dtype) || label.dtype === 'int8' || label.dtype === 'uint8')
        throw new TypeError(`cross_entropy: hard labels must be int32 or int64, got ${label.dtype}`);
      const ok = full.every((d, i) => (i === axis ? d === 1 || typeof d !== 'number' : sameDim(d, x.shape[i])));
      if (!ok) throw new ShapeError(`cross_entropy: label shape ${shapeStr(label.shape)} does not match input ${shapeStr(x.shape)} (class axis ${axis}); expected the input's shape without that axis, or with it of size 1`);
    }
    if (weight) {
      if (weight.shape.length !== 1 || !sameDim(weight.shape[0], x.shape[axis]))
        throw new ShapeError(`cross_entropy: input's class_dimension(${x.shape[axis]}) must equal to weight's class_dimension(${weight.shape[weight.shape.length - 1]}) when weight is provided (weight shape ${shapeStr(weight.shape)})`);
      if (weight.dtype !== x.dtype) throw new TypeError(`cross_entropy: weight dtype ${weight.dtype} differs from input dtype ${x.dtype}`);
    }
    if (a.reduction !== 'none') return [{ dtype: x.dtype, shape: [] }];
    const lossShape = a.soft_label || ((a.label_smoothing as number | undefined) ?? 0) > 0 ? x.shape.map((d, i) => (i === axis ? 1 : d)) : lr === rank - 1 ? label.shape : full;
    return [{ dtype: x.dtype, shape: lossShape }];
  },
  /** [ignore_index, reduction (0 none, 1 mean, 2 sum), soft_label, axis, use_softmax, hasWeight, label_smoothing] */
  encode: (a, ins) => [a.ignore_index as number, REDUCTIONS.indexOf(a.reduction as string), a.soft_label ? 1 : 0,
    normAxis(a.axis as number, ins[0].shape.length, 'cross_entropy'), a.use_softmax ? 1 : 0, ins[2] ? 1 : 0,
    (a.label_smoothing as number | undefined) ?? 0],
  grad: crossEntropyGrad,
  gradReads: { inputs: [0, 1, 2] },
  api: { names: ['nn.functional.cross_entropy'] },
});

// cross_entropy: Paddle's F.cross_entropy(input, label, weight=None, ignore_index=-100,
// reduction='mean', soft_label=False, axis=-1, use_softmax=True). Native: native/kernels/nn_loss.cc.
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
import type { Attrs, TensorMeta } from '../types.js';

const REDUCTIONS = ['none', 'mean', 'sum'];

function checkAttrs(a: Attrs): void {
  if (!REDUCTIONS.includes(a.reduction as string))
    throw new RangeError(`cross_entropy: The value of 'reduction' in softmax_cross_entropy should be 'sum', 'mean' or 'none', but received ${JSON.stringify(a.reduction)}, which is not allowed.`);
  if (!Number.isInteger(a.ignore_index)) throw new TypeError(`cross_entropy: ignore_index must be an integer, got ${JSON.stringify(a.ignore_index)}`);
  if ((a.ignore_index as number) > 0 && a.soft_label)
    throw new RangeError(`cross_entropy: When soft_label == True, the value of 'ignore_index' in softmax_cross_entropy should be '-100', but received ${a.ignore_index}, which is not allowed.`);
}

const sameDim = (a: Dim, b: Dim) => a === b || typeof a !== 'number' || typeof b !== 'number';

export const cross_entropy = registerOp({
  name: 'cross_entropy',
  inputs: [{ name: 'input' }, { name: 'label' }, { name: 'weight', optional: true }],
  attrs: [
    { name: 'ignore_index', type: 'int', default: -100 },
    { name: 'reduction', type: 'str', default: 'mean' },
    { name: 'soft_label', type: 'bool', default: false },
    { name: 'axis', type: 'int', default: -1 },
    { name: 'use_softmax', type: 'bool', default: true },
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
    const lossShape = a.soft_label ? x.shape.map((d, i) => (i === axis ? 1 : d)) : lr === rank - 1 ? label.shape : full;
    return [{ dtype: x.dtype, shape: lossShape }];
  },
  /** [ignore_index, reduction (0 none, 1 mean, 2 sum), soft_label, axis, use_softmax, hasWeight] */
  encode: (a, ins) => [a.ignore_index as number, REDUCTIONS.indexOf(a.reduction as string), a.soft_label ? 1 : 0,
    normAxis(a.axis as number, ins[0].shape.length, 'cross_entropy'), a.use_softmax ? 1 : 0, ins[2] ? 1 : 0],
  api: { names: ['nn.functional.cross_entropy'] },
});

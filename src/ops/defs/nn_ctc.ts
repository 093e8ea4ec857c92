// F.ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction='mean',
// norm_by_times=False) as one op (native: native/kernels/nn_ctc.cc). Paddle composes it from its
// warpctc op (softmax inside: log_probs are unnormalized scores), a squeeze and the reduction;
// here the reduction lives in the op so TS and Python share this single definition:
//   'none' -> [B] per-sequence losses, 'sum' -> their sum, 'mean' -> mean(loss / label_lengths).
// The kernel's second output, warpctcgrad [T, B, C], is each per-sequence loss's gradient with
// respect to the scores (divided by the input length with norm_by_times, as warp-ctc does, which
// makes it a scaled rather than the exact gradient in that mode). The grad rule only scales it by
// the upstream gradient, so ctc_loss has no second-order gradient (neither has Paddle's warpctc).
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import { reductionCode } from './nn_loss_more.js';

const INDEX = ['int32', 'int64'];

export const ctc_loss = registerOp({
  name: 'ctc_loss',
  inputs: [{ name: 'log_probs' }, { name: 'labels' }, { name: 'input_lengths' }, { name: 'label_lengths' }],
  attrs: [{ name: 'blank', type: 'int', default: 0 }, { name: 'reduction', type: 'str', default: 'mean' }, { name: 'norm_by_times', type: 'bool', default: false }],
  outputs: ['loss', 'warpctcgrad'],
  infer: (ins, a) => {
    const red = reductionCode('ctc_loss', a.reduction);
    const [x, labels, il, ll] = ins;
    if (x.shape.length !== 3) throw new ShapeError(`ctc_loss: log_probs must be 3-D [max_logit_length, batch_size, num_classes + 1], got ${shapeStr(x.shape)}`);
    if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`ctc_loss: log_probs must be float32 or float64, got ${x.dtype}`);
    const [, B, C] = x.shape;
    if (!Number.isInteger(a.blank) || (a.blank as number) < 0 || (typeof C === 'number' && (a.blank as number) >= C))
      throw new RangeError(`ctc_loss: blank ${JSON.stringify(a.blank)} is out of range [0, ${C}) for ${C} classes`);
    if (labels.shape.length !== 2) throw new ShapeError(`ctc_loss: labels must be [batch_size, max_label_length], got ${shapeStr(labels.shape)}`);
    for (const [t, what] of [[labels, 'labels'], [il, 'input_lengths'], [ll, 'label_lengths']] as const)
      if (!INDEX.includes(t.dtype)) throw new TypeError(`ctc_loss: ${what} must be int32 or int64, got ${t.dtype}`);
    for (const [t, what] of [[labels, 'labels'], [il, 'input_lengths'], [ll, 'label_lengths']] as const) {
      const b = t.shape[0];
      if ((what !== 'labels' && t.shape.length !== 1) || (typeof b === 'number' && typeof B === 'number' && b !== B))
        throw new ShapeError(`ctc_loss: ${what} must have batch_size ${B} as its first and ${what === 'labels' ? 'one of two' : 'only'} dim, got ${shapeStr(t.shape)}`);
    }
    return [{ dtype: x.dtype, shape: red === 0 ? [B] : [] }, { dtype: x.dtype, shape: x.shape }];
  },
  /** [blank, reduction, norm_by_times] */
  encode: (a) => [a.blank as number, reductionCode('ctc_loss', a.reduction), a.norm_by_times ? 1 : 0],
  grad: ({ inputs: [x, , , ll], outputs: [, wg], outGrads: [g], attrs, needsGrad }, ops) => {
    if (!needsGrad[0] || !g) return [null, null, null, null];
    const k = kit(ops);
    const B = k.shape(x!)[1];
    const red = attrs.reduction as string;
    let up = red === 'none' ? g : k.expandTo(g, [B]);
    if (red === 'mean') up = k.div(k.scale(up, 1 / Math.max(B, 1)), k.cast(ll!, k.dtype(x!)));
    return [k.mul(wg!, k.reshape(up, [1, B, 1])), null, null, null];
  },
  gradReads: { inputs: [3], outputs: [1] },
  api: { names: ['nn.functional.ctc_loss'], methods: [], returnOutput: 0 },
});

/** F.ctc_loss with Paddle's positional order (the op's own): the loss only. */
export function ctc_loss_api(...args: unknown[]): unknown {
  return callOp(ctc_loss, args);
}

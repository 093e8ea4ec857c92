// The losses of paddle.nn.functional beyond cross_entropy (native: native/kernels/nn_loss_more.cc).
// Each is one registry op, so TypeScript, Python (generated from the op table), PIR and the
// executor share a single definition; Paddle composes several of them in Python, which is why
// some names (mse_loss, l1_loss, ...) have no pd_op of their own in Paddle.
//
// Pointwise losses broadcast their tensor inputs (smooth_l1_loss, kl_div and the binary cross
// entropies require input and label of one shape, as Paddle's ops do) and reduce with
// 'none' | 'mean' | 'sum' (kl_div also 'batchmean': the sum over input.shape[0]).
//   mse_loss(input, label, reduction='mean')                  (x - y)^2
//   l1_loss(input, label, reduction='mean')                   |x - y|
//   smooth_l1_loss(input, label, reduction='mean', delta=1.0) 0.5 r^2 if |r| < delta, else delta (|r| - delta / 2)
//   kl_div(input, label, reduction='mean', log_target=False)  y (log y - x) (0 where y <= 0); exp(y) (y - x) with log_target
//   margin_ranking_loss(input, other, label, margin=0.0, reduction='mean')  max(0, -label (input - other) + margin)
//   hinge_embedding_loss(input, label, margin=1.0, reduction='mean')        x if label == 1, max(0, margin - x) if -1
//   binary_cross_entropy(input, label, weight=None, reduction='mean')       -w (y log x + (1 - y) log(1 - x)), logs >= -100
//   binary_cross_entropy_with_logits(logit, label, weight=None, reduction='mean', pos_weight=None)  (bound by hand:
//       pos_weight follows reduction in Paddle's signature)
// Per-sample losses:
//   nll_loss(input, label, weight=None, ignore_index=-100, reduction='mean')  input [N, C, d...], label [N, d...]
//   cosine_embedding_loss(input1, input2, label, margin=0, reduction='mean')  inputs [N, M] or [M], label [N]
// Paddle 2.6 has no functional huber_loss: smooth_l1_loss with delta is its Huber loss.
import { isFloating, isInteger } from '../../tensor/dtype.js';
import { broadcastShapes, type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { type GradKit, kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import type { AttrSpec, Attrs, InputSpec, OpDef, TensorMeta } from '../types.js';
import { bindArgs } from './nn_util.js';

const REDUCTIONS = ['none', 'mean', 'sum', 'batchmean'];

/** The reduction code the kernels read; throws Paddle's message for anything else. */
export function reductionCode(op: string, r: unknown, batchmean = false): number {
  const i = REDUCTIONS.indexOf(r as string);
  if (i < 0 || (i === 3 && !batchmean))
    throw new RangeError(`${op}: The value of 'reduction' in ${op} should be 'sum', 'mean'${batchmean ? ", 'batchmean'" : ''} or 'none', but received ${JSON.stringify(r)}, which is not allowed.`);
  return i;
}

const sameDims = (a: readonly Dim[], b: readonly Dim[]) =>
  a.length === b.length && a.every((d, i) => d === b[i] || typeof d !== 'number' || typeof b[i] !== 'number');

type Grad = NonNullable<OpDef['grad']>;

interface PointwiseSpec {
  name: string;
  inputs: InputSpec[];
  attrs: AttrSpec[];
  /** Inputs whose shapes must be equal (Paddle's ops check these). */
  same?: [number, number, string, string];
  batchmean?: boolean;
  /** Kernel layout after the reduction code: [p0, p1, flag0, flag1]. */
  params(a: Attrs, ins: readonly (TensorMeta | null)[]): number[];
  grad: Grad;
  gradReads?: OpDef['gradReads'];
  api?: OpDef['api'];
}

function pointwise(s: PointwiseSpec): OpDef {
  return registerOp({
    name: s.name,
    inputs: s.inputs,
    attrs: s.attrs,
    outputs: ['out'],
    infer: (ins: readonly (TensorMeta | null)[], a) => {
      const red = reductionCode(s.name, a.reduction, s.batchmean);
      const x = ins[0]!;
      if (!isFloating(x.dtype)) throw new TypeError(`${s.name}: expected a floating-point ${s.inputs[0].name}, got ${x.dtype}`);
      let shape: Dim[] = [...x.shape];
      ins.forEach((t, i) => {
        if (!t || i === 0) return;
        if (t.dtype !== x.dtype) throw new TypeError(`${s.name}: ${s.inputs[i].name} dtype ${t.dtype} differs from ${s.inputs[0].name} dtype ${x.dtype}`);
        shape = broadcastShapes(shape, t.shape, s.name);
      });
      if (s.same) {
        const [i, j, ni, nj] = s.same;
        if (!sameDims(ins[i]!.shape, ins[j]!.shape))
          throw new ShapeError(`${s.name}: ${ni} shape ${shapeStr(ins[i]!.shape)} must equal ${nj} shape ${shapeStr(ins[j]!.shape)}`);
      }
      return [{ dtype: x.dtype, shape: red === 0 ? shape : [] }];
    },
    encode: (a, ins) => [reductionCode(s.name, a.reduction, s.batchmean), ...s.params(a, ins)],
    grad: s.grad,
    gradReads: s.gradReads ?? { inputs: s.inputs.map((_, i) => i) },
    api: s.api ?? { names: [`nn.functional.${s.name}`], methods: [] },
  });
}

/**
 * The upstream gradient at every element of the broadcast shape `b` (undoing the reduction);
 * `batch` is input.shape[0] for 'batchmean'.
 */
function upstream<T>(k: GradKit<T>, g: T, b: number[], reduction: string, batch = 1): T {
  if (reduction === 'none') return g;
  const n = b.reduce((p, d) => p * d, 1);
  const s = reduction === 'sum' ? g : k.scale(g, 1 / Math.max(reduction === 'batchmean' ? batch : n, 1));
  return k.expandTo(s, b);
}

/** The broadcast shape of the present inputs. */
function bshape<T>(k: GradKit<T>, ins: readonly (T | null)[]): number[] {
  let s: Dim[] = [];
  for (const t of ins) if (t) s = broadcastShapes(s, k.shape(t), 'loss');
  return s as number[];
}

/** Per-input gradients: d(loss)/d(input i) times G, summed back to each input's shape. */
function back<T>(k: GradKit<T>, ins: readonly (T | null)[], needs: readonly boolean[], parts: ((G: T) => T | null)[], G: T): (T | null)[] {
  return ins.map((t, i) => {
    if (!t || !needs[i] || !parts[i]) return null;
    const d = parts[i](G);
    return d ? k.sumTo(d, k.shape(t)) : null;
  });
}

const reductionAttr: AttrSpec = { name: 'reduction', type: 'str', default: 'mean' };
const XY: InputSpec[] = [{ name: 'input' }, { name: 'label' }];

export const mse_loss = pointwise({
  name: 'mse_loss', inputs: XY, attrs: [reductionAttr], params: () => [],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, y] = inputs;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const d = (G2: typeof G) => k.mul(k.scale(k.sub(x!, y!), 2), G2);
    return back(k, inputs, needsGrad, [d, (G2) => k.neg(d(G2))], G);
  },
});

export const l1_loss = pointwise({
  name: 'l1_loss', inputs: XY, attrs: [reductionAttr], params: () => [],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, y] = inputs;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const d = (G2: typeof G) => k.mul(k.op('sign', [k.sub(x!, y!)]), G2);
    return back(k, inputs, needsGrad, [d, (G2) => k.neg(d(G2))], G);
  },
});

export const smooth_l1_loss = pointwise({
  name: 'smooth_l1_loss', inputs: XY, attrs: [reductionAttr, { name: 'delta', type: 'float', default: 1.0 }],
  same: [0, 1, 'input', 'label'],
  params: (a) => [a.delta as number],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, y] = inputs;
    const delta = attrs.delta as number;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const r = k.sub(x!, y!);
    const inside = k.cmp('less_than', k.op('abs', [r]), k.scalar(delta, r));
    const dr = k.where(inside, r, k.scale(k.op('sign', [r]), delta));
    const d = (G2: typeof G) => k.mul(dr, G2);
    return back(k, inputs, needsGrad, [d, (G2) => k.neg(d(G2))], G);
  },
});

export const kl_div = pointwise({
  name: 'kl_div', inputs: XY, attrs: [reductionAttr, { name: 'log_target', type: 'bool', default: false }],
  same: [0, 1, 'input', 'label'], batchmean: true,
  params: (a) => [a.log_target ? 1 : 0],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, y] = inputs;
    const shape = k.shape(x!);
    const G = upstream(k, g!, shape, attrs.reduction as string, shape.length ? shape[0] : 1);
    if (attrs.log_target) {
      const ey = k.exp(y!);
      return back(k, inputs, needsGrad, [(G2) => k.neg(k.mul(ey, G2)), (G2) => k.mul(k.mul(ey, k.scale(k.sub(y!, x!), 1, 1)), G2)], G);
    }
    // where y <= 0 the loss is the constant 0; log of a safe stand-in keeps NaN out of the masked branch
    const pos = k.cmp('greater_than', y!, k.scalar(0, y!));
    const ySafe = k.where(pos, y!, k.scalar(1, y!));
    return back(k, inputs, needsGrad, [
      (G2) => k.mask(pos, k.neg(k.mul(y!, G2))),
      (G2) => k.mask(pos, k.mul(k.scale(k.sub(k.op('log', [ySafe]), x!), 1, 1), G2)),
    ], G);
  },
});

export const margin_ranking_loss = pointwise({
  name: 'margin_ranking_loss', inputs: [{ name: 'input' }, { name: 'other' }, { name: 'label' }],
  attrs: [{ name: 'margin', type: 'float', default: 0.0 }, reductionAttr],
  params: (a) => [a.margin as number],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, o, l] = inputs;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const diff = k.sub(x!, o!);
    const active = k.cmp('greater_than', k.scale(k.neg(k.mul(l!, diff)), 1, attrs.margin as number), k.scalar(0, diff));
    const lg = (G2: typeof G) => k.mask(active, k.mul(l!, G2));
    return back(k, inputs, needsGrad, [(G2) => k.neg(lg(G2)), lg, (G2) => k.mask(active, k.neg(k.mul(diff, G2)))], G);
  },
});

export const hinge_embedding_loss = pointwise({
  name: 'hinge_embedding_loss', inputs: XY,
  attrs: [{ name: 'margin', type: 'float', default: 1.0 }, reductionAttr],
  params: (a) => [a.margin as number],
  // the label selects a branch (Paddle's where(label == 1, ...)): no gradient flows to it
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, l] = inputs;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const one = k.cmp('equal', l!, k.scalar(1, l!));
    const neg = k.cmp('equal', l!, k.scalar(-1, l!));
    const below = k.cmp('less_than', x!, k.scalar(attrs.margin as number, x!));
    const dx = (G2: typeof G) => k.add(k.mask(one, G2), k.mask(neg, k.mask(below, k.neg(G2))));
    return back(k, inputs, needsGrad, [dx, null as never], G);
  },
  gradReads: { inputs: [0, 1] },
});

export const binary_cross_entropy = pointwise({
  name: 'binary_cross_entropy', inputs: [...XY, { name: 'weight', optional: true }], attrs: [reductionAttr],
  same: [0, 1, 'input', 'label'],
  params: (_a, ins) => [0, 0, ins[2] ? 1 : 0],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, y, w] = inputs;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const Gw = (G2: typeof G) => (w ? k.mul(G2, w) : G2);
    // Paddle's bce_loss_grad: (x - y) / max(x (1 - x), 1e-12)
    const den = k.op('maximum', [k.mul(x!, k.scale(x!, -1, 1)), k.scalar(1e-12, x!)]);
    const clog = (t: typeof x) => k.op('maximum', [k.op('log', [t]), k.scalar(-100, t!)]);
    return back(k, inputs, needsGrad, [
      (G2) => k.mul(k.div(k.sub(x!, y!), den), Gw(G2)),
      (G2) => k.mul(k.sub(clog(k.scale(x!, -1, 1)), clog(x)), Gw(G2)),
      (G2) => k.mul(k.op('binary_cross_entropy', [x, y, null], { reduction: 'none' }), G2),
    ], G);
  },
});

/** log(1 + exp(-x)) without overflow: relu(-x) + log1p(exp(-|x|)). */
const softplusNeg = <T>(k: GradKit<T>, x: T) => k.add(k.op('relu', [k.neg(x)]), k.op('log1p', [k.exp(k.neg(k.op('abs', [x])))]));

export const binary_cross_entropy_with_logits = pointwise({
  name: 'binary_cross_entropy_with_logits',
  inputs: [{ name: 'logit' }, { name: 'label' }, { name: 'weight', optional: true }, { name: 'pos_weight', optional: true }],
  attrs: [reductionAttr],
  same: [0, 1, 'logit', 'label'],
  params: (_a, ins) => [0, 0, ins[2] ? 1 : 0, ins[3] ? 1 : 0],
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const [x, y, w, pw] = inputs;
    const G = upstream(k, g!, bshape(k, inputs), attrs.reduction as string);
    const Gw = (G2: typeof G) => (w ? k.mul(G2, w) : G2);
    const sp = softplusNeg(k, x!);
    // lw = 1 + (pos_weight - 1) y;  dL/dx = (1 - y) - lw sigmoid(-x);  dL/dy = -x + (pos_weight - 1) softplus(-x)
    const lw = pw ? k.scale(k.mul(k.scale(pw, 1, -1), y!), 1, 1) : null;
    const sm = k.op('sigmoid', [k.neg(x!)]);
    return back(k, inputs, needsGrad, [
      (G2) => k.mul(k.sub(k.scale(y!, -1, 1), lw ? k.mul(lw, sm) : sm), Gw(G2)),
      (G2) => k.mul(pw ? k.sub(k.mul(k.scale(pw, 1, -1), sp), x!) : k.neg(x!), Gw(G2)),
      (G2) => k.mul(k.op('binary_cross_entropy_with_logits', [x, y, null, pw], { reduction: 'none' }), G2),
      (G2) => k.mul(k.mul(y!, sp), Gw(G2)),
    ], G);
  },
  api: { names: [] },
});

function isTensorish(v: unknown): v is TensorMeta {
  return v !== null && typeof v === 'object' && 'shape' in (v as object) && 'dtype' in (v as object);
}

/** F.binary_cross_entropy_with_logits(logit, label, weight=None, reduction='mean', pos_weight=None). */
export function binary_cross_entropy_with_logits_api(...args: unknown[]): unknown {
  const fn = 'binary_cross_entropy_with_logits';
  const p = bindArgs(fn, ['logit', 'label', 'weight', 'reduction', 'pos_weight'], args);
  if (!isTensorish(p.logit) || !isTensorish(p.label)) throw new TypeError(`${fn}() needs Tensors 'logit' and 'label'`);
  return callOp(binary_cross_entropy_with_logits, [p.logit, p.label, p.weight ?? null, p.pos_weight ?? null, { reduction: p.reduction ?? 'mean' }]);
}

export const nll_loss = registerOp({
  name: 'nll_loss',
  inputs: [{ name: 'input' }, { name: 'label' }, { name: 'weight', optional: true }],
  attrs: [{ name: 'ignore_index', type: 'int', default: -100 }, reductionAttr],
  outputs: ['out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const red = reductionCode('nll_loss', a.reduction);
    if (!Number.isInteger(a.ignore_index)) throw new TypeError(`nll_loss: ignore_index must be an integer, got ${JSON.stringify(a.ignore_index)}`);
    const [x, label, w] = ins as [TensorMeta, TensorMeta, TensorMeta | null];
    if (x.shape.length < 2) throw new ShapeError(`nll_loss: input should have at least 2 dims [N, C, ...], got shape ${shapeStr(x.shape)}`);
    if (!isFloating(x.dtype)) throw new TypeError(`nll_loss: expected a floating-point input, got ${x.dtype}`);
    if (!isInteger(label.dtype) || (label.dtype !== 'int32' && label.dtype !== 'int64')) throw new TypeError(`nll_loss: label must be int32 or int64, got ${label.dtype}`);
    const want = [x.shape[0], ...x.shape.slice(2)];
    if (!sameDims(label.shape, want)) throw new ShapeError(`nll_loss: label shape ${shapeStr(label.shape)} does not match input ${shapeStr(x.shape)}; expected ${shapeStr(want)}`);
    if (w) {
      if (w.shape.length !== 1 || !sameDims(w.shape, [x.shape[1]])) throw new ShapeError(`nll_loss: weight must have shape [${x.shape[1]}] (the classes of input ${shapeStr(x.shape)}), got ${shapeStr(w.shape)}`);
      if (w.dtype !== x.dtype) throw new TypeError(`nll_loss: weight dtype ${w.dtype} differs from input dtype ${x.dtype}`);
    }
    return [{ dtype: x.dtype, shape: red === 0 ? label.shape : [] }];
  },
  /** [ignore_index, reduction, hasWeight] */
  encode: (a, ins) => [a.ignore_index as number, reductionCode('nll_loss', a.reduction), ins[2] ? 1 : 0],
  // dx[n, y, ...] = -w[y] g (0 for ignored labels); 'mean' divides by the kept weight sum (0 stays 0)
  grad: ({ inputs: [x, label, w], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const C = xs[1], rank = xs.length;
    const ldt = k.dtype(label!), dt = k.dtype(x!);
    const valid = k.cmp('not_equal', label!, k.full([], attrs.ignore_index as number, ldt));
    const safe = k.where(valid, label!, k.full([], 0, ldt));
    let coef = k.cast(valid, dt);
    if (w) coef = k.mul(coef, k.reshape(k.op('gather', [w, k.reshape(safe, [-1])], { axis: 0 }), k.shape(label!)));
    const red = attrs.reduction as string;
    let up = red === 'none' ? g! : k.expandTo(g!, k.shape(label!));
    if (red === 'mean') {
      const tw = k.sum(coef, k.shape(coef).map((_, i) => i));
      const safeTw = k.where(k.cmp('equal', tw, k.scalar(0, tw)), k.scalar(1, tw), tw);
      up = k.div(up, safeTw);
    }
    const c = k.op('unsqueeze', [k.neg(k.mul(coef, up))], { axis: [1] });
    // one_hot puts classes last: [N, d..., C] -> [N, C, d...]
    let hot = k.cast(k.op('one_hot', [safe], { num_classes: C }), dt);
    if (rank > 2) hot = k.transpose(hot, [0, rank - 1, ...Array.from({ length: rank - 2 }, (_, i) => i + 1)]);
    return [k.mul(hot, c), null, null];
  },
  gradReads: { inputs: [1, 2] },
  api: { names: ['nn.functional.nll_loss'], methods: [] },
});

export const cosine_embedding_loss = registerOp({
  name: 'cosine_embedding_loss',
  inputs: [{ name: 'input1' }, { name: 'input2' }, { name: 'label' }],
  attrs: [{ name: 'margin', type: 'float', default: 0 }, reductionAttr],
  outputs: ['out'],
  infer: (ins, a) => {
    const red = reductionCode('cosine_embedding_loss', a.reduction);
    const [x1, x2, l] = ins;
    const m = a.margin as number;
    if (typeof m !== 'number' || !(m >= -1 && m <= 1)) throw new RangeError(`cosine_embedding_loss: margin should lie in [-1, 1], got ${JSON.stringify(a.margin)}`);
    if (l.shape.length !== 1) throw new ShapeError(`cosine_embedding_loss: 1D target tensor expected, multi-target not supported (label shape ${shapeStr(l.shape)})`);
    if (!sameDims(x1.shape, x2.shape)) throw new ShapeError(`cosine_embedding_loss: the shape of input1 ${shapeStr(x1.shape)} should be equal to input2 ${shapeStr(x2.shape)}`);
    if (x1.shape.length < 1 || x1.shape.length > 2) throw new ShapeError(`cosine_embedding_loss: 1D target tensor expects 1D or 2D input tensors, got ${shapeStr(x1.shape)}`);
    if ((x1.dtype !== 'float32' && x1.dtype !== 'float64') || x2.dtype !== x1.dtype) throw new TypeError(`cosine_embedding_loss: inputs must be float32 or float64 of one dtype, got ${x1.dtype} and ${x2.dtype}`);
    if (!['int32', 'int64', 'float32', 'float64'].includes(l.dtype)) throw new TypeError(`cosine_embedding_loss: label must be int32, int64, float32 or float64, got ${l.dtype}`);
    const N = x1.shape.length === 2 ? x1.shape[0] : 1;
    if (!sameDims(l.shape, [N])) throw new ShapeError(`cosine_embedding_loss: label shape ${shapeStr(l.shape)} does not match the ${N} rows of input ${shapeStr(x1.shape)}`);
    return [{ dtype: x1.dtype, shape: red === 0 ? [N] : [] }];
  },
  /** [reduction, margin] */
  encode: (a) => [reductionCode('cosine_embedding_loss', a.reduction), a.margin as number],
  // cos = p / sqrt(m1 m2) with m = |.|^2 + 1e-11: dcos/da = b / den - cos a / m1 (and symmetrically)
  grad: ({ inputs: [a, b, label], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const shape = k.shape(a!);
    const rows = shape.length === 2 ? shape[0] : 1;
    const A = k.reshape(a!, [rows, shape[shape.length - 1]]), B = k.reshape(b!, [rows, shape[shape.length - 1]]);
    const p = k.sum(k.mul(A, B), [1], true);
    const m1 = k.scale(k.sum(k.square(A), [1], true), 1, 1e-11), m2 = k.scale(k.sum(k.square(B), [1], true), 1, 1e-11);
    const den = k.op('sqrt', [k.mul(m1, m2)]);
    const cos = k.div(p, den);
    const L = k.reshape(k.cast(label!, k.dtype(a!)), [rows, 1]);
    const red = attrs.reduction as string;
    const up = red === 'none' ? k.reshape(g!, [rows, 1]) : k.expandTo(k.reshape(red === 'mean' ? k.scale(g!, 1 / Math.max(rows, 1)) : g!, [1, 1]), [rows, 1]);
    const active = k.cmp('greater_than', k.scale(cos, 1, -(attrs.margin as number)), k.scalar(0, cos));
    const dcos = k.add(k.mask(k.cmp('equal', L, k.scalar(1, L)), k.neg(up)), k.mask(k.cmp('equal', L, k.scalar(-1, L)), k.mask(active, up)));
    const part = (u: typeof A, v: typeof A, mu: typeof A) => k.reshape(k.mul(dcos, k.sub(k.div(v, den), k.div(k.mul(cos, u), mu))), shape);
    return [needsGrad[0] ? part(A, B, m1) : null, needsGrad[1] ? part(B, A, m2) : null, null];
  },
  gradReads: { inputs: [0, 1, 2] },
  api: { names: ['nn.functional.cosine_embedding_loss'], methods: [] },
});

/** Public functions whose binding is written by hand, by dotted path below `paddle`. */
export const lossPublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  'nn.functional.binary_cross_entropy_with_logits': binary_cross_entropy_with_logits_api,
};

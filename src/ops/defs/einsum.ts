// paddle.einsum(equation, *operands): a composite of registry ops, not a kernel. The equation is
// parsed once into labels per operand dim; then each operand loses its repeated labels
// (diagonals: a mask by eye and a sum) and the labels nobody else needs (sums), operands are
// contracted left to right (transpose + reshape to [batch, m, k] x [batch, k, n] + matmul), and
// the result is summed down to and transposed into the output labels. Every step is a public
// op, so gradients (also of higher order) and static-program recording come with them.
//
// Supported, as in Paddle 2.6 / numpy: implicit output (labels seen once, sorted, after the
// broadcast '...' dims), explicit '->' output, one '...' per term, repeated labels within an
// operand (diagonals, traces), size-1 broadcasting of a label against another operand's size.
import { ShapeError } from '../../tensor/shape.js';
import type { DType } from '../../tensor/dtype.js';
import { runOp, type TensorLike } from '../dispatch.js';
import { scope } from '../../tensor/tensor.js';

type L = string;  // a label: one letter, or '.0', '.1', ... for the broadcast dims of '...'

interface Term { labels: L[] | null; ellipsisAt: number; raw: string }

const LETTER = /^[a-zA-Z]$/;

function parseTerm(t: string, eq: string): Term {
  const dots = t.indexOf('...');
  if (dots >= 0 && t.indexOf('...', dots + 1) >= 0) throw new SyntaxError(`einsum: more than one '...' in term '${t}' of equation '${eq}'`);
  const rest = dots >= 0 ? t.slice(0, dots) + t.slice(dots + 3) : t;
  for (const ch of rest) {
    if (!LETTER.test(ch)) throw new SyntaxError(`einsum: invalid character '${ch}' in equation '${eq}' (labels are letters a-z, A-Z; '...' for broadcast dims)`);
  }
  return { labels: [...rest], ellipsisAt: dots, raw: t };
}

interface Plan {
  /** Labels of each operand's dims, in order (ellipsis dims expanded to '.k' labels). */
  inputs: L[][];
  output: L[];
}

/** Parses `equation` for operands of the given ranks. */
export function einsumPlan(equation: string, ranks: readonly number[]): Plan {
  if (typeof equation !== 'string') throw new TypeError(`einsum: equation must be a string, got ${typeof equation}`);
  const eq = equation.replace(/\s+/g, '');
  const arrow = eq.indexOf('->');
  if (arrow >= 0 && eq.indexOf('->', arrow + 1) >= 0) throw new SyntaxError(`einsum: more than one '->' in equation '${equation}'`);
  const lhs = arrow >= 0 ? eq.slice(0, arrow) : eq;
  const terms = lhs.split(',').map((t) => parseTerm(t, equation));
  if (terms.length !== ranks.length)
    throw new RangeError(`einsum: equation '${equation}' has ${terms.length} input term${terms.length === 1 ? '' : 's'} but ${ranks.length} operand${ranks.length === 1 ? ' was' : 's were'} given`);
  // Broadcast dims: operand k's '...' covers rank - letters dims, right-aligned among nEll labels.
  let nEll = 0;
  const ellCount = terms.map((t, k) => {
    const letters = t.labels!.length;
    if (t.ellipsisAt < 0) {
      if (letters !== ranks[k]) throw new ShapeError(`einsum: term '${t.raw}' has ${letters} labels but operand ${k} has rank ${ranks[k]}`);
      return 0;
    }
    if (letters > ranks[k]) throw new ShapeError(`einsum: term '${t.raw}' has ${letters} labels but operand ${k} has rank ${ranks[k]}`);
    nEll = Math.max(nEll, ranks[k] - letters);
    return ranks[k] - letters;
  });
  const ell = (n: number): L[] => Array.from({ length: n }, (_, i) => `.${nEll - n + i}`);
  const inputs = terms.map((t, k) => {
    const ls = t.labels!;
    if (t.ellipsisAt < 0) return [...ls];
    const before = [...t.raw.slice(0, t.ellipsisAt)].length;
    return [...ls.slice(0, before), ...ell(ellCount[k]), ...ls.slice(before)];
  });
  const seen = new Map<L, number>();
  for (const ls of inputs) for (const l of ls) if (!l.startsWith('.')) seen.set(l, (seen.get(l) ?? 0) + 1);
  let output: L[];
  if (arrow >= 0) {
    const out = parseTerm(eq.slice(arrow + 2), equation);
    const letters = out.labels!;
    for (const l of letters) {
      if (!seen.has(l)) throw new SyntaxError(`einsum: output label '${l}' of equation '${equation}' does not appear in any input term`);
    }
    if (new Set(letters).size !== letters.length) throw new SyntaxError(`einsum: output term '${out.raw}' of equation '${equation}' repeats a label`);
    // Without '...' in the output the broadcast dims are summed away (as Paddle does).
    if (out.ellipsisAt < 0) output = [...letters];
    else {
      const before = [...out.raw.slice(0, out.ellipsisAt)].length;
      output = [...letters.slice(0, before), ...ell(nEll), ...letters.slice(before)];
    }
  } else {
    // Implicit output: the broadcast dims, then the labels that appear once, in sorted order.
    output = [...ell(nEll), ...[...seen.keys()].filter((l) => seen.get(l) === 1).sort()];
  }
  return { inputs, output };
}

const op = (name: string, ins: TensorLike[], attrs: Record<string, unknown> = {}): TensorLike => runOp(name, ins, attrs)[0];
const shapeOf = (t: TensorLike): number[] => {
  const s = t.shape as readonly unknown[];
  if (!s.every((d) => typeof d === 'number')) throw new ShapeError('einsum: symbolic (unknown) dims are not supported');
  return s as number[];
};

interface Operand { t: TensorLike; labels: L[] }

/** Sums the dims at `axes` (keeping the operand's dtype, integers included). */
function sumAxes(o: Operand, axes: number[]): Operand {
  if (!axes.length) return o;
  const t = op('sum', [o.t], { axis: axes, keepdim: false, dtype: o.t.dtype });
  return { t, labels: o.labels.filter((_, i) => !axes.includes(i)) };
}

/** Takes the diagonal of every repeated label: x * eye over the two dims, summed over the second. */
function diagonals(o: Operand): Operand {
  for (;;) {
    const i = o.labels.findIndex((l, k) => o.labels.indexOf(l) !== k);
    if (i < 0) return o;
    const first = o.labels.indexOf(o.labels[i]);
    const s = shapeOf(o.t);
    if (s[first] !== s[i]) throw new ShapeError(`einsum: label '${o.labels[i]}' repeats over dims of sizes ${s[first]} and ${s[i]}`);
    const n = s[i];
    const eyeShape = s.map((_, k) => (k === first || k === i ? n : 1));
    const eye = op('reshape', [op('eye', [], { num_rows: n, num_columns: n, dtype: o.t.dtype })], { shape: eyeShape });
    o = sumAxes({ t: op('multiply', [o.t, eye]), labels: o.labels }, [i]);
  }
}

/** Sums the labels of `o` that are not in `keep`. */
function dropUnneeded(o: Operand, keep: Set<L>): Operand {
  return sumAxes(o, o.labels.map((l, i) => (keep.has(l) ? -1 : i)).filter((i) => i >= 0));
}

function permute(o: Operand, order: L[]): Operand {
  const perm = order.map((l) => o.labels.indexOf(l));
  if (perm.every((p, i) => p === i)) return { t: o.t, labels: order };
  return { t: op('transpose', [o.t], { perm }), labels: order };
}

function reshape(t: TensorLike, shape: number[]): TensorLike {
  const s = shapeOf(t);
  return s.length === shape.length && s.every((d, i) => d === shape[i]) ? t : op('reshape', [t], { shape });
}

const prod = (xs: number[]): number => xs.reduce((a, b) => a * b, 1);

/** Broadcasts a's and b's size-1 dims of shared labels against each other. */
function matchSizes(a: Operand, b: Operand): [Operand, Operand] {
  const sa = shapeOf(a.t), sb = shapeOf(b.t);
  const ta = [...sa], tb = [...sb];
  a.labels.forEach((l, i) => {
    const j = b.labels.indexOf(l);
    if (j < 0 || sa[i] === sb[j]) return;
    if (sa[i] === 1) ta[i] = sb[j];
    else if (sb[j] === 1) tb[j] = sa[i];
    else throw new ShapeError(`einsum: label '${l.startsWith('.') ? '...' : l}' has size ${sa[i]} in one operand and ${sb[j]} in another`);
  });
  const grow = (o: Operand, s: number[], t: number[]): Operand =>
    (s.every((d, i) => d === t[i]) ? o : { t: op('expand', [o.t], { shape: t }), labels: o.labels });
  return [grow(a, sa, ta), grow(b, sb, tb)];
}

/** Contracts two operands over their shared labels not in `keep`. */
function contract(a0: Operand, b0: Operand, keep: Set<L>): Operand {
  const [a, b] = matchSizes(a0, b0);
  const inB = new Set(b.labels);
  const batch = a.labels.filter((l) => inB.has(l) && keep.has(l));
  const summed = a.labels.filter((l) => inB.has(l) && !keep.has(l));
  const aOnly = a.labels.filter((l) => !inB.has(l));
  const bOnly = b.labels.filter((l) => !a.labels.includes(l));
  const A = permute(a, [...batch, ...aOnly, ...summed]), B = permute(b, [...batch, ...summed, ...bOnly]);
  const sa = shapeOf(A.t), sb = shapeOf(B.t);
  const nb = batch.length;
  const bs = sa.slice(0, nb), ms = sa.slice(nb, nb + aOnly.length), ks = sa.slice(nb + aOnly.length), ns = sb.slice(nb + summed.length);
  // An empty operand (some size 0) gives zeros (or an empty result): reshape reads 0 as "copy
  // this dim", so the [batch, m, k] form cannot be built for it.
  if ([...bs, ...ms, ...ks, ...ns].includes(0))
    return { t: op('full', [], { shape: [...bs, ...ms, ...ns], fill_value: 0, dtype: A.t.dtype }), labels: [...batch, ...aOnly, ...bOnly] };
  const am = reshape(A.t, [prod(bs), prod(ms), prod(ks)]);
  const bm = reshape(B.t, [prod(bs), prod(ks), prod(ns)]);
  const out = reshape(op('matmul', [am, bm]), [...bs, ...ms, ...ns]);
  return { t: out, labels: [...batch, ...aOnly, ...bOnly] };
}

/** paddle.einsum(equation, *operands): operands as separate arguments or one list. */
export function einsum(equation: string, ...rest: unknown[]): TensorLike {
  const operands = (rest.length === 1 && Array.isArray(rest[0]) ? rest[0] : rest) as TensorLike[];
  if (operands.length === 0) throw new RangeError('einsum: at least one operand is required');
  operands.forEach((t, k) => {
    if (!t || typeof t !== 'object' || !('dtype' in t) || !('shape' in t)) throw new TypeError(`einsum: operand ${k} must be a Tensor`);
  });
  const dt: DType = operands[0].dtype;
  operands.forEach((t, k) => {
    if (t.dtype !== dt) throw new TypeError(`einsum: all operands must have the same dtype, got ${dt} (operand 0) and ${t.dtype} (operand ${k})`);
  });
  if (dt === 'bool') throw new TypeError('einsum: bool operands are not supported');
  const plan = einsumPlan(equation, operands.map((t) => t.shape.length));
  // Intermediates are freed on return (autograd keeps its own handles on what it saved).
  return scope(() => run(plan, operands));
}

function run(plan: Plan, operands: TensorLike[]): TensorLike {
  const outSet = new Set(plan.output);
  let ops: Operand[] = operands.map((t, k) => diagonals({ t, labels: plan.inputs[k] }));
  // Labels still needed by operand k: the output's and those of the other operands.
  const needed = (skip: number[]): Set<L> => {
    const s = new Set(plan.output);
    ops.forEach((o, k) => { if (!skip.includes(k)) for (const l of o.labels) s.add(l); });
    return s;
  };
  ops = ops.map((o, k) => dropUnneeded(o, needed([k])));
  while (ops.length > 1) {
    const keep = new Set(plan.output);
    for (const o of ops.slice(2)) for (const l of o.labels) keep.add(l);
    const merged = contract(ops[0], ops[1], keep);
    ops = [merged, ...ops.slice(2)];
  }
  let r = dropUnneeded(ops[0], outSet);
  // A broadcast label that never met a bigger size stays at its size (1 included), as numpy.
  r = permute(r, plan.output);
  return r.t;
}

/** Public functions written by hand (mounted by src/paddle.ts). */
export const einsumPublic: Readonly<Record<string, (...args: never[]) => unknown>> = { einsum };

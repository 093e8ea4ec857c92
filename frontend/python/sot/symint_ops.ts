// Symbolic ints (symint.ts) as shape arguments of tensor ops. Registry ops take concrete int
// attributes, so a symbolic size is rewritten into an argument the op already resolves from its
// input's shape at run time, and the result's inferred dim must equal the symbolic int for every
// size (sameDim) — otherwise the call breaks with SOT008 and runs concretely:
//  - reshape: a dim equal to x's dim at the same position becomes 0 (Paddle: copy that dim), one
//    other becomes -1 (inferred from the element count);
//  - expand / broadcast_to: a dim equal to x's aligned dim becomes -1 (keep it);
//  - split: one symbolic section becomes -1;
//  - full / zeros / ones: the value in a shape with 1 where the symbolic sizes go, multiplied by
//    ones shaped like the tensor dims those sizes were read from (full_like reads no values, and
//    v * 1 is v for every value, -0.0, inf and nan included);
//  - arange(n): cumsum of n ones minus one;
//  - x[..., :n] with n equal to the sliced dim: the whole dim.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, ListVar, SliceVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { getOp, hasOp } from '../../../src/ops/registry.js';
import type { SymTensor } from '../../../sot/function_graph.js';
import type { Dim } from '../../../src/tensor/shape.js';
import type { Translator } from './translator.js';
import { callApi, opArg, recordOp } from './semantics.js';
import { hasSymInt, lowerBound, sameDim, SymIntVar } from './symint.js';

const refuse = (what: string): GraphBreak => new GraphBreak('SOT008', what);
const intConst = (n: number): ConstVar => new ConstVar({ k: 'int', v: n });
const isNoneVar = (v: Variable | undefined): boolean => v === undefined || (v instanceof ConstVar && v.value.k === 'none');
const constInt = (v: Variable | undefined): number | null =>
  v instanceof ConstVar && (v.value.k === 'int' || v.value.k === 'bool') ? Number(v.value.v) : null;

/** Binds positional and keyword arguments to op `def`'s inputs then attributes (as callApi does). */
function bind(opName: string, args: Variable[], kwargs: [string, Variable][]): Map<string, Variable> {
  const def = getOp(opName);
  const params = [...def.inputs.map((i) => i.name), ...def.attrs.map((a) => a.name)];
  const out = new Map<string, Variable>();
  if (args.length > params.length) throw new GraphBreak('SOT007', `${opName}() takes at most ${params.length} arguments`);
  args.forEach((a, i) => out.set(params[i], a));
  for (const [k, v] of kwargs) {
    if (k === 'name') continue;
    const key = def.api?.aliases?.[k] ?? k;
    if (!params.includes(key) || out.has(key)) throw new GraphBreak('SOT007', `${opName}() bad keyword '${k}'`);
    out.set(key, v);
  }
  return out;
}

const listItems = (v: Variable | undefined, what: string): Variable[] => {
  if (v instanceof ListVar || v instanceof TupleVar) return v.items.slice();
  throw refuse(`${what} must be a list of ints to take a symbolic int`);
};

const tensorOf = (v: Variable | undefined, what: string): SymTensor => {
  if (v instanceof TensorVar) return v.sym;
  throw refuse(`${what} is not a tensor`);
};

const rebuild = (opName: string, slots: Map<string, Variable>): [Variable[], [string, Variable][]] => {
  const def = getOp(opName);
  const params = [...def.inputs.map((i) => i.name), ...def.attrs.map((a) => a.name)];
  return [[], params.filter((p) => slots.has(p)).map((p) => [p, slots.get(p)!] as [string, Variable])];
};

/** Re-issues op `opName` with rewritten slots (no symbolic ints left) through the ordinary path. */
function reissue(tx: Translator, opName: string, slots: Map<string, Variable>): Variable {
  const [args, kwargs] = rebuild(opName, slots);
  if ([...slots.values()].some(hasSymInt)) throw refuse(`${opName}: a symbolic int is left in its arguments`);
  return callApi(tx, opName, args, kwargs);
}

const shapeOf = (v: Variable): readonly Dim[] => {
  if (v instanceof TensorVar) return v.sym.shape;
  throw refuse('the op did not give one tensor');
};

/** Every symbolic int `want[i]` must equal dim i of `got` for every size. */
function verify(opName: string, got: readonly Dim[], want: readonly (Dim | null)[]): void {
  if (got.length !== want.length) throw refuse(`${opName}: result rank ${got.length} differs from the ${want.length} sizes asked`);
  want.forEach((d, i) => {
    if (d !== null && !sameDim(got[i], d)) throw refuse(`${opName}: dim ${i} is ${String(got[i])}, not ${String(d)} for every size`);
  });
}

/** The op call with symbolic ints in its arguments, or a SOT008 break when it cannot be expressed. */
export function symIntApi(tx: Translator, opName: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  const slots = bind(opName, args, kwargs);
  switch (opName) {
    case 'reshape': return reshape(tx, slots);
    case 'expand': return expand(tx, slots);
    case 'split': return split(tx, slots);
    case 'full': case 'zeros': case 'ones': return full(tx, opName, slots);
    case 'arange': return arange(tx, slots);
    default: throw refuse(`${opName}() with a symbolic int argument`);
  }
}

function reshape(tx: Translator, slots: Map<string, Variable>): Variable {
  const x = tensorOf(slots.get('x'), 'reshape: x');
  const items = listItems(slots.get('shape'), 'reshape: shape');
  const want: (Dim | null)[] = items.map((v) => (v instanceof SymIntVar ? v.dim : null));
  const out = items.map((v, i): Variable => (v instanceof SymIntVar && i < x.shape.length && sameDim(v.dim, x.shape[i]) ? intConst(0) : v));
  const left = out.map((v, i) => (v instanceof SymIntVar ? i : -1)).filter((i) => i >= 0);
  if (left.length > 1 || (left.length === 1 && out.some((v) => constInt(v) === -1))) throw refuse('reshape: more than one size is symbolic and not x\'s own dim');
  if (left.length === 1) out[left[0]] = intConst(-1);
  const r = reissue(tx, 'reshape', new Map([...slots, ['shape', new ListVar(out)]]));
  verify('reshape', shapeOf(r), want);
  return r;
}

function expand(tx: Translator, slots: Map<string, Variable>): Variable {
  const x = tensorOf(slots.get('x'), 'expand: x');
  const items = listItems(slots.get('shape'), 'expand: shape');
  const lead = items.length - x.shape.length;
  const want: (Dim | null)[] = items.map((v) => (v instanceof SymIntVar ? v.dim : null));
  // Where x has the dim already: -1 (keep it). Where x has 1 or no dim yet: expand to 1 there and
  // broadcast against ones along the symbolic size (x * 1 is x for every value).
  const grow: number[] = [];
  const out = items.map((v, i): Variable => {
    if (!(v instanceof SymIntVar)) return v;
    if (i >= lead && sameDim(v.dim, x.shape[i - lead])) return intConst(-1);
    if (i >= lead && x.shape[i - lead] !== 1) throw refuse('expand: a symbolic size where x has another dim');
    grow.push(i);
    return intConst(1);
  });
  let r = reissue(tx, 'expand', new Map([...slots, ['shape', new ListVar(out)]]));
  if (grow.length) {
    let y = (r as TensorVar).sym;
    if (y.dtype === 'bool') throw refuse('expand: a bool tensor to a symbolic size');
    for (const i of grow) y = recordOp(tx, 'multiply', [y, onesAlong(tx, items[i] as SymIntVar, i, items.length, y.dtype)])[0] as SymTensor;
    r = new TensorVar(y);
  }
  verify('expand', shapeOf(r), want);
  return r;
}

function split(tx: Translator, slots: Map<string, Variable>): Variable {
  const items = listItems(slots.get('num_or_sections'), 'split: num_or_sections');
  const syms = items.map((v, i) => (v instanceof SymIntVar ? i : -1)).filter((i) => i >= 0);
  if (syms.length !== 1 || items.some((v) => constInt(v) === -1)) throw refuse('split: more than one section is symbolic');
  const k = syms[0], want = (items[k] as SymIntVar).dim;
  const out = items.slice();
  out[k] = intConst(-1);
  const r = reissue(tx, 'split', new Map([...slots, ['num_or_sections', new ListVar(out)]]));
  const parts = r instanceof ListVar || r instanceof TupleVar ? r.items : [];
  const x = tensorOf(slots.get('x'), 'split: x');
  const axisArg = constInt(slots.get('axis')) ?? 0;
  const axis = axisArg < 0 ? axisArg + x.shape.length : axisArg;
  if (parts.length !== items.length || !(parts[k] instanceof TensorVar) || !sameDim(parts[k].sym.shape[axis], want)) throw refuse('split: the symbolic section does not match the rest for every size');
  return r;
}

/**
 * Ones of `dtype` shaped [1, ..., n, ..., 1] (n at `pos` of `rank`), n being dim `axis` of a
 * graph tensor: slice every other dim to one element, then reshape.
 */
function onesAlong(tx: Translator, s: SymIntVar, pos: number, rank: number, dtype: unknown): SymTensor {
  if (s.origin.k !== 'dim') throw refuse('a symbolic size that is not a tensor dim itself');
  const t = s.origin.t.sym, axis = s.origin.axis;
  const others = t.shape.map((_, i) => i).filter((i) => i !== axis);
  let y = t as SymTensor;
  if (others.length) y = recordOp(tx, 'slice', [y], { axes: others, starts: others.map(() => 0), ends: others.map(() => 1) })[0] as SymTensor;
  y = recordOp(tx, 'reshape', [y], { shape: Array.from({ length: rank }, (_, i) => (i === pos ? -1 : 1)) })[0] as SymTensor;
  y = recordOp(tx, 'full_like', [y], { fill_value: 1, dtype })[0] as SymTensor;
  verify('full', y.shape, y.shape.map((_, i) => (i === pos ? s.dim : 1)));
  return y;
}

/** full / zeros / ones: the op at size 1 where the symbolic sizes go, times ones along them. */
function full(tx: Translator, opName: string, slots: Map<string, Variable>): Variable {
  const items = listItems(slots.get('shape'), `${opName}: shape`);
  const base = reissue(tx, opName, new Map([...slots, ['shape', new ListVar(items.map((v) => (v instanceof SymIntVar ? intConst(1) : v)))]]));
  let y = (base as TensorVar).sym;
  if (y.dtype === 'bool') throw refuse(`${opName}: a bool tensor of symbolic shape`);
  items.forEach((v, i) => {
    if (v instanceof SymIntVar) y = recordOp(tx, 'multiply', [y, onesAlong(tx, v, i, items.length, y.dtype)])[0] as SymTensor;
  });
  const r = new TensorVar(y);
  verify('full', y.shape, items.map((v) => (v instanceof SymIntVar ? v.dim : null)));
  return r;
}

function arange(tx: Translator, slots: Map<string, Variable>): Variable {
  let start = slots.get('start'), end = slots.get('end');
  if (isNoneVar(end)) { end = start; start = intConst(0); }
  const step = slots.get('step');
  if (!(end instanceof SymIntVar) || constInt(start) !== 0 || !(isNoneVar(step) || constInt(step) === 1)) {
    throw refuse('arange: only arange(n) / arange(0, n, 1) take a symbolic int');
  }
  const dtypeVar = slots.get('dtype');
  const dtype = isNoneVar(dtypeVar) ? 'int64' : opArg(tx, dtypeVar!);
  if (!['int64', 'int32', 'float32', 'float64'].includes(String(dtype))) throw refuse(`arange: dtype ${String(dtype)} with a symbolic end`);
  if (!hasOp('cumsum') || !hasOp('subtract')) throw refuse('arange: the registry has no cumsum/subtract');
  const ones = onesAlong(tx, end, 0, 1, dtype);
  const c = recordOp(tx, 'cumsum', [ones], { axis: 0, dtype })[0] as SymTensor;
  const r = recordOp(tx, 'subtract', [c, ones])[0] as SymTensor;
  verify('arange', r.shape, [end.dim]);
  if (r.dtype !== dtype) throw refuse(`arange: got ${r.dtype}, wanted ${String(dtype)}`);
  return new TensorVar(r);
}

/**
 * A slice along a symbolic dim `d`: null when it keeps all of it (`:`, `0:`, `:n` with n == d,
 * step 1); [start, stop] when both are numbers within the smallest size the symbol binds (an
 * automatic symbol is >= 2, so `x[:, :1]` is one element at every size); otherwise, and for
 * symbolic bounds on a static dim, a SOT008 break.
 */
export function symDimSlice(s: SliceVar, d: Dim): [number, number] | null {
  const start = isNoneVar(s.start) ? 0 : constInt(s.start);
  const okStep = isNoneVar(s.step) || constInt(s.step) === 1;
  const okStop = isNoneVar(s.stop) || (s.stop instanceof SymIntVar && sameDim(s.stop.dim, d));
  if (typeof d !== 'number' && start === 0 && okStep && okStop) return null;
  const stop = constInt(s.stop), lo = lowerBound(d);
  if (typeof d !== 'number' && okStep && start !== null && stop !== null && lo !== null && start >= 0 && start <= stop && stop <= lo) return [start, stop];
  throw refuse(typeof d === 'number' ? 'a symbolic slice bound on a static dimension' : 'a slice of a symbolic dimension that depends on its size');
}

/** x[i] along a symbolic dim: i when every size the symbol binds has it (0 <= i < smallest size). */
export function symDimIndex(i: Variable, d: Dim): number {
  const n = constInt(i), lo = lowerBound(d);
  if (n !== null && lo !== null && n >= 0 && n < lo) return n;
  throw refuse('indexing along a symbolic dimension where the index depends on its size');
}

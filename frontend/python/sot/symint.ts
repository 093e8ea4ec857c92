// Python ints from symbolic dims (SymIntVar, symint_var.ts): where they come from (x.shape, len,
// x.size), arithmetic that keeps them symbolic, comparisons decided by a symbol's domain, and the
// values they become at a graph break. Their use as shape arguments of ops is symint_ops.ts.
//
// Nothing here assumes a size: anything that cannot be decided for *every* size the symbols may
// bind breaks with SOT008, and the instruction then runs concretely (eager's result).
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { nontrivialSyms } from '../../../sot/guards.js';
import type { Template } from '../../../sot/trace_tree.js';
import { ConstVar, ListVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import type { Dim } from '../../../src/tensor/shape.js';
import { evalDim, isBareSymbol, symbolsOf } from '../../../src/tensor/sym_expr.js';
import type { Translator } from './translator.js';
import { combineDims, SymIntVar } from './symint_var.js';

export { SymIntVar } from './symint_var.js';

const intConst = (n: number): ConstVar => new ConstVar({ k: 'int', v: n });

/** x.shape[axis] as a variable: a constant for a static dim, a SymIntVar for a symbolic one. */
export function dimInt(t: TensorVar, axis: number): Variable {
  const d = t.sym.shape[axis];
  return typeof d === 'number' ? intConst(d) : new SymIntVar(d, { k: 'dim', t, axis });
}

/** x.shape (Paddle 2.6: a list of ints). */
export const shapeList = (t: TensorVar): ListVar => new ListVar(t.sym.shape.map((_, i) => dimInt(t, i)));

/** x.size: the product of the dims, symbolic when one of them is. */
export function sizeInt(t: TensorVar): Variable {
  let acc: Variable = intConst(1);
  for (let i = 0; i < t.sym.shape.length; i++) acc = arith('*', acc, dimInt(t, i));
  return acc;
}

/** Int operand as a Dim, or null for anything else (floats, bools, tensors, ...). */
function asDim(v: Variable): Dim | null {
  if (v instanceof SymIntVar) return v.dim;
  if (v instanceof ConstVar && v.value.k === 'int') {
    const n = Number(v.value.v);
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

function arith(sym: '+' | '-' | '*' | '//', a: Variable, b: Variable): Variable {
  const da = asDim(a), db = asDim(b);
  if (da === null || db === null) throw new GraphBreak('SOT008', `operator ${sym} on a symbolic int and ${da === null ? a.kind : b.kind}`);
  const d = combineDims(sym, da, db);
  if (typeof d === 'number') return intConst(d);
  // n*1, n+0: the same int (and the same template at a break)
  if (a instanceof SymIntVar && d === a.dim) return a;
  if (b instanceof SymIntVar && d === b.dim) return b;
  return new SymIntVar(d, { k: 'bin', sym, a, b });
}

const ARITH: Record<string, '+' | '-' | '*' | '//'> = { '+': '+', '-': '-', '*': '*', '//': '//', '+=': '+', '-=': '-', '*=': '*', '//=': '//' };

/** a <sym> b when one side is a symbolic int; undefined when neither is. */
export function symIntBinary(sym: string, a: Variable, b: Variable): Variable | undefined {
  if (!(a instanceof SymIntVar) && !(b instanceof SymIntVar)) return undefined;
  const op = ARITH[sym];
  if (!op) throw new GraphBreak('SOT008', `operator ${sym} on a symbolic int`);
  // n // 0 raises in Python: let the instruction run concretely
  if (op === '//' && asDim(b) === 0) throw new GraphBreak('SOT008', 'floor division of a symbolic int by 0');
  return arith(op, a, b);
}

export function symIntUnary(op: 'neg' | 'not' | 'invert' | 'pos', v: SymIntVar): Variable {
  if (op === 'pos') return v;
  if (op === 'neg') return arith('-', intConst(0), v);
  if (op === 'not') return new ConstVar({ k: 'bool', v: !symIntTruthy(v) });
  throw new GraphBreak('SOT008', `unary ${op} on a symbolic int`);
}

/** Smallest size a symbol may bind: automatic symbols bind >= 2 (guards.ts), others >= 0. */
export function lowerBound(d: Dim): number | null {
  if (typeof d === 'number') return d;
  if (!isBareSymbol(d)) return null;
  return nontrivialSyms.has(d) ? 2 : 0;
}

/**
 * Dims equal for every binding of their symbols. Equal expressions are; otherwise both are
 * evaluated at several bindings (sizes >= 2, pairwise distinct primes and composites) and must
 * agree at all of them, which for the sums, products and floor divisions the translator builds
 * only happens when they are the same function.
 */
export function sameDim(a: Dim, b: Dim): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return false;
  const syms = [...new Set([...symbolsOf(a), ...symbolsOf(b)])];
  const PROBES = [2, 3, 5, 7, 12, 13, 60, 97, 128, 331, 512, 1009];
  for (let k = 0; k < PROBES.length; k++) {
    const env = new Map(syms.map((s, i) => [s, PROBES[(k + 3 * i) % PROBES.length] + i] as [string, number]));
    let x: number | undefined, y: number | undefined;
    try { x = evalDim(a, env); y = evalDim(b, env); } catch { return false; }   // min(), data dims: not provably equal
    if (x === undefined || y === undefined || x !== y) return false;
  }
  return true;
}

/**
 * A comparison with a symbolic int, when it has one answer for every size: two equal
 * expressions, or a symbol against a number its domain decides (an automatic symbol never binds
 * 0 or 1, so `n > 1` is True). Otherwise the comparison breaks (SOT008) and runs concretely.
 */
export function symIntCompare(sym: string, a: Variable, b: Variable): Variable | undefined {
  if (!(a instanceof SymIntVar) && !(b instanceof SymIntVar)) return undefined;
  const da = asDim(a), db = asDim(b);
  const answer = (v: boolean): ConstVar => new ConstVar({ k: 'bool', v });
  if (da !== null && db !== null) {
    if (sameDim(da, db)) {
      if (['==', '<=', '>=', 'is'].includes(sym)) return answer(true);
      if (['!=', '<', '>'].includes(sym)) return answer(false);
    }
    // symbol (lower bound lo) against a number c
    const flip: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };
    const [s, c, op] = typeof db === 'number' ? [da, db, sym] : typeof da === 'number' ? [db, da, flip[sym]] : [null, 0, ''];
    const lo = s === null ? null : lowerBound(s);
    if (lo !== null && op) {
      if ((op === '>' && lo > c) || (op === '>=' && lo >= c) || (op === '!=' && lo > c)) return answer(true);
      if ((op === '<' && lo >= c) || (op === '<=' && lo > c) || (op === '==' && lo > c)) return answer(false);
    }
  }
  throw new GraphBreak('SOT008', `comparison ${sym} on a symbolic int (its answer depends on the size)`);
}

/** bool(n): True for a symbol that never binds 0; otherwise it depends on the size. */
export function symIntTruthy(v: SymIntVar): boolean {
  const lo = lowerBound(v.dim);
  if (lo !== null && lo > 0) return true;
  throw new GraphBreak('SOT008', 'truth value of a symbolic int');
}

/** Builtins on symbolic ints: int(n) is n, isinstance(n, int) is True, len(x) of a symbolic first dim. */
export function symIntBuiltin(name: string, args: Variable[], run: (a: Variable[]) => Variable | undefined): Variable | undefined | null {
  if (name === 'len' && args.length === 1 && args[0] instanceof TensorVar && args[0].sym.shape.length > 0 && typeof args[0].sym.shape[0] !== 'number') {
    return dimInt(args[0], 0);
  }
  if (!args.some((a) => a instanceof SymIntVar)) return null;
  switch (name) {
    case 'int': if (args.length === 1) return args[0]; break;
    case 'operator.index': return args[0];
    // the type is int whatever the size: answer as for a constant int (no guard needed)
    case 'isinstance': case 'type': return run([intConst(2), ...args.slice(1)]);
    default: break;   // max/min/range/float/str/...: the answer depends on the size
  }
  throw new GraphBreak('SOT008', `builtin ${name}() on a symbolic int`);
}

/** True when v (or an item of a list/tuple in it) is a symbolic int. */
export function hasSymInt(v: Variable): boolean {
  if (v instanceof SymIntVar) return true;
  if (v instanceof ListVar || v instanceof TupleVar) return v.items.some(hasSymInt);
  return false;
}

/** Templates made by symIntTemplate: their value depends on a size no guard of the node fixed. */
const SIZE_DEPENDENT = new WeakSet<Template>();

/**
 * How the int is rebuilt at run time when it crosses a graph break or is returned: x.shape[i]
 * of the real tensor, then the same arithmetic with BINARY_OP (concrete steps of the host).
 */
export function symIntTemplate(tx: Translator, v: SymIntVar, rec: (x: Variable) => Template): Template {
  const o = v.origin;
  const t: Template = o.k === 'dim'
    ? {
      k: 'build', step: { opname: 'BINARY_SUBSCR', arg: 0 },
      operands: [{ k: 'attr', obj: rec(o.t), name: 'shape' }, { k: 'const', v: { k: 'int', v: o.axis } }],
    }
    : { k: 'build', step: { opname: 'BINARY_OP', arg: tx.host.binaryOpArg(o.sym) }, operands: [rec(o.a), rec(o.b)] };
  SIZE_DEPENDENT.add(t);
  return t;
}

/**
 * A child's entry slot rebuilt with a symbolic int in it (alone or inside a container): its
 * value differs per size, so the child must guard it like a step result, never take it as known.
 */
export function holdsSymInt(t: Template): boolean {
  if (SIZE_DEPENDENT.has(t)) return true;
  switch (t.k) {
    case 'tuple': case 'list': return t.items.some(holdsSymInt);
    case 'dict': return t.keys.some(holdsSymInt) || t.values.some(holdsSymInt);
    case 'attr': return holdsSymInt(t.obj);
    case 'fresh': return holdsSymInt(t.inner);
    case 'build': return t.operands.some(holdsSymInt);
    default: return false;
  }
}

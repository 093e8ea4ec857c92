// Shape-constraint inference: which relations between a program's symbolic dims its ops need.
//
// The registry's infer rules run on symbols and, where two symbols meet (a broadcast of s0 with
// s2, matmul's inner dims, concat's other dims, stack), assume they agree and go on. Those
// assumptions are the program's constraints. Rather than teach every infer rule to report them,
// each op is *probed*: its infer runs on concrete sizes, first with every symbol distinct; if
// that is rejected, the smallest set of equalities between the op's operand dims (dims at the
// same broadcast position first, then any two) that makes it accept is the op's constraint set.
// Dims may be expressions (a flattening reshape gives s0*s1, a concat s0+s1), so a constraint
// can be a product or sum equality: add(reshape(x[s0, s1], [-1]), y[s2]) needs s0*s1 == s2.
//
// The result is recorded in the program as shape.tie_product_equal ops (src/pir/dialects/shape.ts):
// printed, parsed, kept by passes, and checked by the executor when a run binds the symbols.
import type { TensorMeta } from '../ops/types.js';
import { type Dim, dimStr, sym } from '../tensor/shape.js';
import { constraintStr, evalDim, isBareSymbol, type ShapeConstraint, symbolsOf } from '../tensor/sym_expr.js';
import type { Operation, Program } from './core.js';
import { flatInputs, pdAttrs } from './dialects/pd_op.js';
import { setShapeConstraints, TIE_PRODUCT_EQUAL } from './dialects/shape.js';
import { UNKNOWN_DIM } from './types.js';

// Distinct probe sizes: multiples of 12 (so reshapes into small factors divide) times distinct
// primes (so no two symbols, sums or products coincide by accident).
const PROBE = [60, 84, 132, 156, 204, 228, 276, 348, 372, 444, 492, 516, 564, 636, 708, 732];

export interface Eq { readonly a: Dim; readonly b: Dim }
const eqKey = (e: Eq): string => `${dimStr(e.a)}=${dimStr(e.b)}`;

/** Bindings for the symbols that satisfy `eqs`, others taking distinct probe sizes; null if contradictory. */
function solve(symbols: readonly string[], eqs: readonly Eq[]): Map<string, number> | null {
  const env = new Map<string, number>();
  let next = 0;
  for (;;) {
    let progress = true;
    while (progress) {
      progress = false;
      for (const e of eqs) {
        const l = evalDim(e.a, env), r = evalDim(e.b, env);
        if (l === undefined && r !== undefined && isBareSymbol(e.a)) { env.set(dimStr(e.a), r); progress = true; }
        else if (r === undefined && l !== undefined && isBareSymbol(e.b)) { env.set(dimStr(e.b), l); progress = true; }
      }
    }
    const free = symbols.find((s) => !env.has(s));
    if (free === undefined) break;
    const used = new Set(env.values());
    while (used.has(PROBE[next % PROBE.length] + Math.floor(next / PROBE.length))) next++;
    env.set(free, PROBE[next % PROBE.length] + Math.floor(next / PROBE.length));
    next++;
  }
  return eqs.every((e) => evalDim(e.a, env) === evalDim(e.b, env)) ? env : null;
}

/** Equalities between operand dims that op `name`'s infer needs (empty when it needs none or none help). */
export function probeConstraints(infer: (ins: TensorMeta[]) => unknown, ins: readonly (TensorMeta | null)[]): Eq[] {
  const metas = ins.filter((m): m is TensorMeta => m !== null);
  const symbols = [...new Set(metas.flatMap((m) => m.shape.flatMap(symbolsOf)))];
  if (symbols.length === 0) return [];
  const accepts = (eqs: readonly Eq[]): boolean => {
    const env = solve(symbols, eqs);
    if (!env) return false;
    const concrete: (TensorMeta | null)[] = [];
    for (const m of ins) {
      if (m === null) { concrete.push(null); continue; }
      const shape = m.shape.map((d) => evalDim(d, env));
      if (shape.some((d) => d === undefined || d < 0)) return false;
      concrete.push({ dtype: m.dtype, shape: shape as number[] });
    }
    try { infer(concrete as TensorMeta[]); return true; } catch { return false; }
  };
  if (accepts([])) return [];

  // Candidates: dims meeting at the same position counted from the right (broadcasting, concat,
  // elementwise), then any two distinct dims of the operands, then a symbol against a number.
  const seen = new Set<string>();
  const aligned: Eq[] = [], others: Eq[] = [];
  const add = (list: Eq[], a: Dim, b: Dim): void => {
    if (a === b || a === 1 || b === 1 || (typeof a === 'number' && typeof b === 'number')) return;
    const e = typeof a === 'number' ? { a: b, b: a } : { a, b };
    const k = eqKey(e), k2 = eqKey({ a: e.b, b: e.a });
    if (seen.has(k) || seen.has(k2)) return;
    seen.add(k);
    list.push(e);
  };
  metas.forEach((x, i) => metas.forEach((y, j) => {
    if (j <= i) return;
    for (let k = 1; k <= Math.min(x.shape.length, y.shape.length); k++) add(aligned, x.shape[x.shape.length - k], y.shape[y.shape.length - k]);
  }));
  const dims = [...new Set(metas.flatMap((m) => m.shape))];
  for (const a of dims) for (const b of dims) if (typeof a !== 'number' || typeof b !== 'number') add(others, a, b);
  const all = [...aligned, ...others];

  for (const c of all) if (accepts([c])) return [c];
  const minimize = (set: Eq[]): Eq[] => {
    let s = [...set];
    for (const c of set) { const t = s.filter((x) => x !== c); if (accepts(t)) s = t; }
    return s;
  };
  for (const pool of [aligned, all]) {
    const bundle: Eq[] = [];
    for (const c of pool) if (solve(symbols, [...bundle, c])) bundle.push(c);
    if (bundle.length && accepts(bundle)) return minimize(bundle);
  }
  return [];  // no relation between the dims helps: infer rejects these sizes for another reason
}

const hasUnknown = (m: TensorMeta | null): boolean =>
  m !== null && m.shape.some((d) => d === UNKNOWN_DIM || (typeof d !== 'number' && d.expr.includes('?')));

/** The operand relations one pd op needs, or [] for other ops and ops with unknown (-1) dims. */
function opConstraints(op: Operation): Eq[] {
  const def = op.def;
  if (!def || def.dynamicShape) return [];
  let ins: (TensorMeta | null)[];
  try {
    ins = flatInputs(op).map((v) => (v && v.type.kind === 'tensor' ? { dtype: v.type.dtype, shape: v.type.shape } : null));
  } catch {
    return [];
  }
  if (ins.some(hasUnknown)) return [];
  const attrs = pdAttrs(op);
  return probeConstraints((metas) => def.infer(metas, attrs), ins);
}

// ---- canonical form ----

const natural = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** A product `s0*s1*4` as its factors; any other dim as itself. */
function factors(d: Dim): Dim[] {
  if (typeof d === 'number' || !/^[\w]+(\*[\w]+)+$/.test(d.expr)) return [d];
  return d.expr.split('*').map((f) => (/^\d+$/.test(f) ? Number(f) : sym(f)));
}

/**
 * Canonical constraints from equalities: symbols equal to each other are grouped and written
 * `first == other` (natural order), a group equal to a number as `first == n`; sums and products
 * stay as they came, with the compound side on the left (`s0*s1 == s2`). Duplicates go.
 */
export function canonicalConstraints(eqs: readonly Eq[]): ShapeConstraint[] {
  const parent = new Map<string, string>();
  const find = (s: string): string => { let r = s; while (parent.has(r)) r = parent.get(r)!; return r; };
  const value = new Map<string, number>();  // group root -> number
  const rest: Eq[] = [];
  for (const e of eqs) {
    const a = e.a, b = e.b;
    if (isBareSymbol(a) && isBareSymbol(b)) {
      const ra = find(dimStr(a)), rb = find(dimStr(b));
      if (ra === rb) continue;
      const [keep, drop] = natural(ra, rb) <= 0 ? [ra, rb] : [rb, ra];
      parent.set(drop, keep);
      if (value.has(drop)) { if (!value.has(keep)) value.set(keep, value.get(drop)!); else if (value.get(keep) !== value.get(drop)) rest.push(e); value.delete(drop); }
    } else if (isBareSymbol(a) && typeof b === 'number') {
      const r = find(dimStr(a));
      if (value.has(r) && value.get(r) !== b) rest.push(e); else value.set(r, b);
    } else if (isBareSymbol(b) && typeof a === 'number') {
      rest.push({ a: b, b: a });
    } else rest.push(e);
  }
  const out: ShapeConstraint[] = [];
  const groups = new Map<string, string[]>();
  for (const s of [...parent.keys()]) { const r = find(s); groups.set(r, [...(groups.get(r) ?? []), s]); }
  const roots = [...new Set([...groups.keys(), ...value.keys()].map(find))].sort(natural);
  for (const r of roots) {
    for (const m of (groups.get(r) ?? []).sort(natural)) out.push({ lhs: [sym(r)], rhs: [sym(m)] });
    if (value.has(r)) out.push({ lhs: [sym(r)], rhs: [value.get(r)!] });
  }
  const seen = new Set(out.map(constraintStr));
  for (const e of rest) {
    const [x, y] = isBareSymbol(e.a) && !isBareSymbol(e.b) ? [e.b, e.a] : [e.a, e.b];
    const c = { lhs: factors(x), rhs: factors(y) };
    const k = constraintStr(c);
    if (!seen.has(k) && constraintStr({ lhs: c.rhs, rhs: c.lhs }) !== k) { seen.add(k); out.push(c); }
  }
  return out;
}

/** Every constraint the program's ops need (nested region ops included), canonical. */
export function inferShapeConstraints(p: Program): ShapeConstraint[] {
  const eqs: Eq[] = [];
  p.walk((op) => { if (op.name !== TIE_PRODUCT_EQUAL) eqs.push(...opConstraints(op)); });
  return canonicalConstraints(eqs);
}

/**
 * Infers the program's shape constraints and records them (replacing recorded ones) as
 * shape.tie_product_equal ops at the top of the program; returns how many it recorded.
 */
export function inferSymbolicShapes(p: Program): number {
  const cs = inferShapeConstraints(p);
  setShapeConstraints(p, cs);
  return cs.length;
}

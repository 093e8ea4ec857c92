// DRR: declarative rewrite rules (Paddle PIR's DRR, MLIR's PDLL/TableGen DRR). A rule is data:
//   source       a tree of ops whose leaves bind tensors (t('x')) or splat constants (cst('c')),
//                whose attributes bind names (attr('perm')) or must equal literals
//   constraints  predicates over the bindings
//   result       a tree of ops built from the bindings (attribute values literal, bound or
//                computed), or a bound tensor, replacing the source root's results
// drrPattern(rule) turns a rule into a RewritePattern for the greedy driver.
//
// Safety the driver adds to every rule: the replacement must have exactly the root's result
// types (so `x * 1` is not rewritten when the 1 broadcasts x to a larger shape), and ops inside
// the source (not the root) must have no uses outside the match unless the rule allows it
// (otherwise a fusion would compute them twice).
import { fromJs, toAttrValue } from '../pir/attributes.js';
import type { Operation, Value } from '../pir/core.js';
import { PD } from '../pir/dialects/pd_op.js';
import { lookupOpKind } from '../pir/opkind.js';
import { typeEq } from '../pir/types.js';
import type { AttrValue } from '../ops/types.js';
import type { PatternRewriter, RewritePattern } from './rewriter.js';

export interface TensorRef { readonly ref: 'tensor'; readonly name: string }
export interface AttrRef { readonly ref: 'attr'; readonly name: string }
export interface ConstRef { readonly ref: 'const'; readonly name: string }
export interface Computed { readonly ref: 'compute'; readonly fn: (m: Match) => AttrValue }
export interface OpNode {
  readonly ref: 'op';
  /** Full op name (`pd_op.transpose`); a bare name means pd_op. */
  readonly name: string;
  readonly inputs: readonly (OpNode | TensorRef | ConstRef | null)[];
  readonly attrs: Readonly<Record<string, AttrRef | Computed | AttrValue>>;
  /** Binds the matched op as `m.ops[as]`. */
  readonly as?: string;
  /** Which result of the op this node stands for (default 0). */
  readonly result: number;
}

/** What a source pattern bound. */
export interface Match {
  readonly root: Operation;
  readonly v: Record<string, Value>;
  readonly a: Record<string, AttrValue>;
  /** Splat constant values bound by cst(). */
  readonly c: Record<string, number>;
  readonly ops: Record<string, Operation>;
}

export interface DrrRule {
  readonly name: string;
  readonly source: OpNode;
  readonly constraints?: readonly ((m: Match) => boolean)[];
  /** One replacement per root result (a single one may be given bare). */
  readonly result: OpNode | TensorRef | readonly (OpNode | TensorRef)[];
  readonly benefit?: number;
  /** Let ops inside the source keep uses outside the match (fine for cheap ops such as views). */
  readonly allowSharedIntermediates?: boolean;
}

// ---- the rule language ----

export const t = (name: string): TensorRef => ({ ref: 'tensor', name });
export const attr = (name: string): AttrRef => ({ ref: 'attr', name });
export const cst = (name: string): ConstRef => ({ ref: 'const', name });
export const compute = (fn: (m: Match) => AttrValue): Computed => ({ ref: 'compute', fn });
export function op(name: string, inputs: OpNode['inputs'], attrs: OpNode['attrs'] = {}, opts: { as?: string; result?: number } = {}): OpNode {
  return { ref: 'op', name: name.includes('.') ? name : `${PD}.${name}`, inputs, attrs, as: opts.as, result: opts.result ?? 0 };
}

const isRef = (x: unknown): x is { ref: string } => typeof x === 'object' && x !== null && !Array.isArray(x) && 'ref' in x;

function valueEq(a: AttrValue, b: AttrValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  return a === b || Object.is(a, b);
}

/** The splat value of a constant-like definition of v, if any (builtin.constant, pd_op.full). */
export function splatValueOf(v: Value): number | undefined {
  const d = v.definingOp;
  if (!d) return undefined;
  if (d.name === 'builtin.constant') {
    const a = d.attr('value');
    if (!a) return undefined;
    if (a.kind === 'int' || a.kind === 'float') return a.value;
    if (a.kind === 'bool') return a.value ? 1 : 0;
    if ((a.kind === 'ints' || a.kind === 'floats') && a.value.length > 0 && a.value.every((x) => Object.is(x, a.value[0]))) return a.value[0];
    return undefined;
  }
  if (d.name === `${PD}.full`) {
    const a = d.attr('fill_value');
    if (a?.kind === 'int' || a?.kind === 'float') return a.value;
  }
  return undefined;
}

// ---- matching ----

function matchNode(node: OpNode, v: Value | null, m: Match, matched: Operation[]): boolean {
  const d = v?.definingOp;
  if (!v || !d || d.name !== node.name || v !== d.results[node.result]) return false;
  if (d.numOperands !== node.inputs.length) return false;
  for (const [k, want] of Object.entries(node.attrs)) {
    const a = d.attr(k);
    if (!a) return false;
    let got: AttrValue;
    try { got = toAttrValue(a, d.name); } catch { return false; }
    if (isRef(want)) {
      if (want.ref === 'attr') {
        const prev = m.a[(want as AttrRef).name];
        if (prev !== undefined && !valueEq(prev, got)) return false;
        m.a[(want as AttrRef).name] = got;
      }
    } else if (!valueEq(want as AttrValue, got)) return false;
  }
  if (node.as) m.ops[node.as] = d;
  matched.push(d);
  return node.inputs.every((inp, i) => matchInput(inp, d.operand(i), m, matched));
}

function matchInput(inp: OpNode['inputs'][number], v: Value | null, m: Match, matched: Operation[]): boolean {
  if (inp === null) return v === null;
  if (v === null) return false;
  switch (inp.ref) {
    case 'op': return matchNode(inp, v, m, matched);
    case 'tensor': {
      const prev = m.v[inp.name];
      if (prev && prev !== v) return false;
      m.v[inp.name] = v;
      return true;
    }
    case 'const': {
      const c = splatValueOf(v);
      if (c === undefined) return false;
      const prev = m.c[inp.name];
      if (prev !== undefined && !Object.is(prev, c)) return false;
      m.c[inp.name] = c;
      m.v[inp.name] = v;
      return true;
    }
  }
}

/** Matches `rule.source` rooted at `op`; the bindings, or null. Exported for tests. */
export function matchRule(rule: DrrRule, root: Operation): Match | null {
  const m: Match = { root, v: {}, a: {}, c: {}, ops: {} };
  const matched: Operation[] = [];
  if (root.numResults === 0 || !matchNode(rule.source, root.results[rule.source.result], m, matched)) return null;
  if (!rule.allowSharedIntermediates) {
    const inside = new Set(matched);
    for (const o of matched) {
      if (o === root) continue;
      for (const r of o.results) if (r.uses.some((u) => !inside.has(u.owner))) return null;
    }
  }
  for (const c of rule.constraints ?? []) if (!c(m)) return null;
  return m;
}

// ---- building the result ----

function resolveAttr(x: AttrRef | Computed | AttrValue, m: Match, rule: string): AttrValue {
  if (!isRef(x)) return x as AttrValue;
  if (x.ref === 'attr') {
    const v = m.a[(x as AttrRef).name];
    if (v === undefined) throw new Error(`DRR rule '${rule}': result uses attribute '${(x as AttrRef).name}', which the source does not bind`);
    return v;
  }
  return (x as Computed).fn(m);
}

function build(node: OpNode | TensorRef | ConstRef | null, m: Match, rw: PatternRewriter, rule: string): Value | null {
  if (node === null) return null;
  if (node.ref !== 'op') {
    const v = m.v[node.name];
    if (!v) throw new Error(`DRR rule '${rule}': result uses '${node.name}', which the source does not bind`);
    return v;
  }
  const inputs = node.inputs.map((i) => build(i, m, rw, rule));
  const attrs: Record<string, AttrValue> = {};
  for (const [k, a] of Object.entries(node.attrs)) attrs[k] = resolveAttr(a, m, rule);
  const o = node.name.startsWith(`${PD}.`) ? rw.pdOp(node.name, inputs, attrs) : rw.create(node.name, inputs, Object.entries(attrs).map(([k, v]) => [k, toAttrOf(v)] as const));
  return o.results[node.result];
}

// Non-pd result ops take their attributes as plain values (ints stay ints, lists become arrays).
const toAttrOf = (v: AttrValue) => fromJs(v, 'DRR result');

/** Rule mistakes found without a program: unbound names in the result, unknown result ops. */
function checkRule(rule: DrrRule, results: readonly (OpNode | TensorRef)[]): void {
  const values = new Set<string>(), attrs = new Set<string>();
  const scan = (n: OpNode['inputs'][number]): void => {
    if (!n) return;
    if (n.ref !== 'op') { values.add(n.name); return; }
    for (const a of Object.values(n.attrs)) if (isRef(a) && a.ref === 'attr') attrs.add((a as AttrRef).name);
    n.inputs.forEach(scan);
  };
  scan(rule.source);
  const fail = (msg: string): never => { throw new Error(`DRR rule '${rule.name}': ${msg}`); };
  const check = (n: OpNode['inputs'][number]): void => {
    if (!n) return;
    if (n.ref !== 'op') { if (!values.has(n.name)) fail(`result uses '${n.name}', which the source does not bind`); return; }
    if (!lookupOpKind(n.name).registered) fail(`result op '${n.name}' is not a registered op`);
    for (const a of Object.values(n.attrs)) {
      if (isRef(a) && a.ref === 'attr' && !attrs.has((a as AttrRef).name)) fail(`result uses attribute '${(a as AttrRef).name}', which the source does not bind`);
    }
    n.inputs.forEach(check);
  };
  results.forEach(check);
}

/** Compiles a rule into a RewritePattern; throws on rule mistakes (unbound names, unknown result ops). */
export function drrPattern(rule: DrrRule): RewritePattern {
  const results = Array.isArray(rule.result) ? rule.result as readonly (OpNode | TensorRef)[] : [rule.result as OpNode | TensorRef];
  checkRule(rule, results);
  return {
    name: rule.name,
    rootNames: [rule.source.name],
    benefit: rule.benefit,
    matchAndRewrite(root, rw) {
      const m = matchRule(rule, root);
      if (!m || results.length !== root.numResults) return false;
      // Bound-tensor replacements are checked before any edit.
      for (let i = 0; i < results.length; i++) {
        const r = results[i];
        if (r.ref === 'tensor' && !typeEq(m.v[r.name]?.type ?? null, root.results[i].type)) return false;
      }
      const created: Operation[] = [];
      const before = new Set(rw.insertionBlock.ops);
      let values: (Value | null)[];
      try {
        values = results.map((r) => build(r, m, rw, rule.name));
      } catch (e) {
        if (e instanceof Error && e.message.startsWith('DRR rule')) throw e;
        values = [];  // infer-meta refused the result ops: no match
      }
      for (const o of rw.insertionBlock.ops) if (!before.has(o)) created.push(o);
      const ok = values.length === root.numResults && values.every((v, i) => v && typeEq(v.type, root.results[i].type));
      if (!ok) {
        for (const o of created.reverse()) if (!o.results.some((r) => r.hasUses)) rw.eraseOp(o);
        return false;
      }
      rw.replaceOp(root, values as Value[]);
      return true;
    },
  };
}


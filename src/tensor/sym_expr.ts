// Symbolic dims as arithmetic: evaluating a SymDim expression (`s0*s1`, `(s0+s2)//2`) under
// symbol bindings, the symbols it mentions, and shape constraints between dims.
//
// A ShapeConstraint says product(lhs) == product(rhs). With one dim on each side it is an
// equality (`s1 == s2`, `s0+s1 == s3` for a concat, `s0 == 4` for a broadcast against a
// number); with several it is a product equality (`s0*s1 == s2` for a flattening reshape).
// Programs record them (shape.tie_product_equal, src/pir/dialects/shape.ts) and the executor
// checks them when a run binds the symbols (src/executor/specialize.ts).
import { type Dim, dimStr } from './shape.js';

type Tok = { t: 'num'; v: number } | { t: 'name'; v: string } | { t: 'op'; v: string };

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  const re = /\s*(?:(\d+)|([A-Za-z_]\w*)|(\/\/|[-+*()]))/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < s.length && (m = re.exec(s))) {
    if (m[1] !== undefined) out.push({ t: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ t: 'name', v: m[2] });
    else out.push({ t: 'op', v: m[3] });
  }
  if (re.lastIndex < s.trimEnd().length) throw new Error(`cannot read symbolic dim '${s}'`);
  return out;
}

/** Value of a symbolic dim under `env`, or undefined when it uses an unbound symbol. */
export function evalDim(d: Dim, env: ReadonlyMap<string, number>): number | undefined {
  if (typeof d === 'number') return d;
  const toks = tokenize(d.expr);
  let i = 0;
  const atom = (): number | undefined => {
    const t = toks[i++];
    if (!t) throw new Error(`truncated symbolic dim '${d.expr}'`);
    if (t.t === 'num') return t.v;
    if (t.t === 'name') return env.get(t.v);
    if (t.v === '(') { const v = sum(); if (toks[i++]?.v !== ')') throw new Error(`unbalanced '(' in '${d.expr}'`); return v; }
    if (t.v === '-') { const v = atom(); return v === undefined ? undefined : -v; }
    throw new Error(`unexpected '${t.v}' in symbolic dim '${d.expr}'`);
  };
  const product = (): number | undefined => {
    let v = atom();
    while (toks[i]?.t === 'op' && (toks[i].v === '*' || toks[i].v === '//')) {
      const op = toks[i++].v, r = atom();
      v = v === undefined || r === undefined ? undefined : op === '*' ? v * r : Math.floor(v / r);
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (toks[i]?.t === 'op' && (toks[i].v === '+' || toks[i].v === '-')) {
      const op = toks[i++].v, r = product();
      v = v === undefined || r === undefined ? undefined : op === '+' ? v + r : v - r;
    }
    return v;
  };
  const v = sum();
  if (i !== toks.length) throw new Error(`cannot read symbolic dim '${d.expr}'`);
  return v;
}

/** Symbol names a dim mentions, in order of appearance. */
export function symbolsOf(d: Dim): string[] {
  if (typeof d === 'number') return [];
  return [...new Set(tokenize(d.expr).filter((t) => t.t === 'name').map((t) => t.v as string))];
}

/** True for a dim that is one bare symbol (`s0`), not an expression. */
export const isBareSymbol = (d: Dim): boolean => typeof d !== 'number' && /^[A-Za-z_]\w*$/.test(d.expr);

export interface ShapeConstraint {
  /** product(lhs) == product(rhs) */
  readonly lhs: readonly Dim[];
  readonly rhs: readonly Dim[];
}

const side = (ds: readonly Dim[]): string => (ds.length === 0 ? '1' : ds.length === 1 ? dimStr(ds[0]) : ds.map((d) => (typeof d === 'number' || isBareSymbol(d) ? dimStr(d) : `(${dimStr(d)})`)).join('*'));

/** `s0*s1 == s2` */
export const constraintStr = (c: ShapeConstraint): string => `${side(c.lhs)} == ${side(c.rhs)}`;

/** Product of `ds` under `env`; undefined when a symbol is unbound. */
export function evalProduct(ds: readonly Dim[], env: ReadonlyMap<string, number>): number | undefined {
  let p = 1;
  for (const d of ds) {
    const v = evalDim(d, env);
    if (v === undefined) return undefined;
    p *= v;
  }
  return p;
}

/**
 * Whether `c` holds under `env`: true, false, or undefined when it mentions an unbound symbol
 * (a data-dependent dim, or a symbol only a later op defines).
 */
export function constraintHolds(c: ShapeConstraint, env: ReadonlyMap<string, number>): boolean | undefined {
  const l = evalProduct(c.lhs, env), r = evalProduct(c.rhs, env);
  return l === undefined || r === undefined ? undefined : l === r;
}

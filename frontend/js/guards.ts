// Guards for JavaScript translations, built from sot sources over the call's entry:
// slot 0 is `this`, slot 1 the `scope` option object, slot 2 the translated function itself,
// slots 3.. the arguments. Free variables a build plugin exposes are read through the
// `@scope` attribute of a function (its `Symbol.for('skiff.scope')` accessor), globals through
// globalThis, and objects reached without a path (a function returned by library code) through
// pins fixed at translation. Values are guarded as sot does: tensors by dtype/shape/
// stop_gradient, primitives by value, objects and functions by identity; a built-in layer run
// symbolically by a snapshot of its state (training flag, attributes, parameter identities).
import { Layer } from '../../src/nn/layer.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { SymDim } from '../../src/tensor/shape.js';
import { checkGuard, describeGuard, type Guard } from '../../sot/guards.js';
import type { Source } from '../../sot/sources.js';
import { rtBool, rtFloat, rtInt, rtStr, NONE, sameConst, type RtValue } from '../../sot/values.js';

export const SCOPE_KEY = Symbol.for('skiff.scope');
/** Identity that stands for `undefined` in identity guards. */
export const UNDEFINED_ID: object = Object.freeze({ undefined: true });
export const MISSING = Symbol('missing');

export type JsGuard =
  | Guard
  | { readonly kind: 'layer_state'; readonly source: Source; readonly expect: readonly unknown[] }
  /** A plain object (options bags): guarded by shape through the reads of its keys, not by identity. */
  | { readonly kind: 'plain'; readonly source: Source }
  /** The own enumerable keys of a plain object, in order (Object.keys/values/entries of an outside object). */
  | { readonly kind: 'keys'; readonly source: Source; readonly expect: readonly string[] };

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

export interface Entry {
  readonly slots: readonly unknown[];
  readonly pins: readonly unknown[];
}

/** The free-variable record of a function (from the build plugin's accessor), or undefined. */
export function scopeRecord(f: unknown): Record<string, unknown> | undefined {
  if ((typeof f !== 'function' && (typeof f !== 'object' || f === null))) return undefined;
  // Own property only: a class inherits its parent's statics, so an untransformed subclass
  // would otherwise show the parent's free variables.
  if (!Object.prototype.hasOwnProperty.call(f, SCOPE_KEY)) return undefined;
  const acc = (f as Record<symbol, unknown>)[SCOPE_KEY];
  if (typeof acc !== 'function') return undefined;
  const r = (acc as () => unknown)();
  return r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : undefined;
}

/** Reads the value at `s` from the entry (MISSING when the path does not exist any more). */
export function resolveJs(s: Source, e: Entry, memo: Map<string, unknown>): unknown {
  const hit = memo.get(s.key);
  if (hit !== undefined || memo.has(s.key)) return hit;
  let v: unknown;
  switch (s.k) {
    case 'slot': v = s.i < e.slots.length ? e.slots[s.i] : MISSING; break;
    case 'global': v = s.name.startsWith('#pin:') ? e.pins[Number(s.name.slice(5))] : (s.name in globalThis ? (globalThis as Record<string, unknown>)[s.name] : MISSING); break;
    case 'attr': {
      const b = resolveJs(s.base, e, memo);
      if (b === MISSING || b === null || b === undefined) v = MISSING;
      else if (s.name === '@scope') v = scopeRecord(b) ?? MISSING;
      else v = Reflect.get(Object(b), s.name);
      break;
    }
    case 'item': {
      const b = resolveJs(s.base, e, memo);
      v = Array.isArray(b) && s.index.k === 'int' ? b[Number(s.index.v)] : MISSING;
      break;
    }
    default: v = MISSING;
  }
  memo.set(s.key, v);
  return v;
}

/** A JS primitive as a sot constant (numbers are JS doubles: kind float), or null. */
export function toRt(v: unknown): RtValue | null {
  switch (typeof v) {
    case 'number': return rtFloat(v);
    case 'bigint': return rtInt(v);
    case 'boolean': return rtBool(v);
    case 'string': return rtStr(v);
    case 'object': return v === null ? NONE : null;
    default: return null;
  }
}

export const identityOf = (v: unknown): unknown => (v === undefined ? UNDEFINED_ID : v);

export function checkJs(g: JsGuard, v: unknown, bindings: Map<SymDim, number>): boolean {
  if (v === MISSING) return false;
  switch (g.kind) {
    case 'tensor': return v instanceof Tensor && checkGuard(g, { k: 'tensor', t: v }, bindings);
    case 'const': { const r = toRt(v); return r !== null && sameConst(r, g.expect); }
    case 'identity': return identityOf(v) === g.expect;
    case 'length': return Array.isArray(v) && v.length === g.expect;
    case 'kind': return g.expect === 'list' ? Array.isArray(v) : false;
    case 'layer_state': return v !== null && typeof v === 'object' && sameSnapshot(v, g.expect);
    case 'plain': return isPlainObject(v);
    case 'keys': {
      if (!isPlainObject(v)) return false;
      const k = Object.keys(v);
      return k.length === g.expect.length && k.every((x, i) => x === g.expect[i]);
    }
    default: return false;
  }
}

export function describeJsGuard(g: JsGuard): string {
  if (g.kind === 'layer_state') return `state of ${g.source.key} (training, attributes, parameters) unchanged`;
  if (g.kind === 'plain') return `${g.source.key} is a plain object`;
  if (g.kind === 'keys') return `keys of ${g.source.key} are ${JSON.stringify(g.expect)}`;
  return describeGuard(g);
}

/** An ordered, deduplicated list of guards. */
export class JsGuardSet {
  readonly list: JsGuard[] = [];
  private keys = new Set<string>();
  add(g: JsGuard): void {
    const k = describeJsGuard(g);
    if (this.keys.has(k)) return;
    this.keys.add(k);
    this.list.push(g);
  }
  /** The first guard that fails for this entry, or null. */
  firstFailing(e: Entry): JsGuard | null {
    const memo = new Map<string, unknown>();
    const bindings = new Map<SymDim, number>();
    for (const g of this.list) if (!checkJs(g, resolveJs(g.source, e, memo), bindings)) return g;
    return null;
  }
  describe(): string[] { return this.list.map(describeJsGuard); }
}

/** Receives the flattened state of a layer: collects it, or compares it with a stored one. */
interface Sink { put(v: unknown): void }

class Collect implements Sink {
  readonly out: unknown[] = [];
  put(v: unknown): void { this.out.push(v); }
}

/** Compares as it walks, without allocating; `ok` turns false at the first difference. */
class Compare implements Sink {
  i = 0;
  ok = true;
  constructor(readonly expect: readonly unknown[]) {}
  put(v: unknown): void {
    if (this.ok && (this.i >= this.expect.length || !Object.is(this.expect[this.i], v))) this.ok = false;
    this.i++;
  }
}

/**
 * Everything a built-in layer's forward may read, flattened: own attributes (primitives by
 * value, objects by identity), tensors with dtype/shape/stop_gradient, arrays and Maps one level
 * in, and sublayers recursively.
 */
export function layerSnapshot(layer: object): unknown[] {
  const c = new Collect();
  walkLayer(layer, c, new Set());
  return c.out;
}

function sameSnapshot(layer: object, expect: readonly unknown[]): boolean {
  const c = new Compare(expect);
  walkLayer(layer, c, new Set());
  return c.ok && c.i === expect.length;
}

function walkLayer(layer: object, out: Sink, seen: Set<object>): void {
  if (seen.has(layer)) return;
  seen.add(layer);
  for (const k of Object.keys(layer)) {
    out.put(k);
    pushValue((layer as Record<string, unknown>)[k], out, seen, 0);
  }
}

function pushValue(v: unknown, out: Sink, seen: Set<object>, depth: number): void {
  out.put(v);
  if (v instanceof Tensor) { out.put(v.dtype); out.put(v.shape.join(',')); out.put(v.stop_gradient); return; }
  if (v instanceof Layer) { walkLayer(v, out, seen); return; }
  if (depth > 2) return;
  if (Array.isArray(v)) { out.put(v.length); for (const x of v) pushValue(x, out, seen, depth + 1); return; }
  if (v instanceof Map) {
    out.put(v.size);
    for (const [k, x] of v) { out.put(k); pushValue(x, out, seen, depth + 1); }
    return;
  }
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    for (const k of Object.keys(v)) { out.put(k); pushValue((v as Record<string, unknown>)[k], out, seen, depth + 1); }
  }
}

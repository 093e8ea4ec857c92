// PIR attributes: immutable tagged values attached to operations by name. Each kind has one
// text form (see printAttr; docs/pir.md), chosen so the kind survives a print/parse round trip
// (an int prints `1`, a float `1.0`, an int array `i64[1, 2]`, a generic array `[1, 2.0]`).
import type { AttrSpec, AttrValue } from '../ops/types.js';
import { type DType, isDType, toDType } from '../tensor/dtype.js';
import type { Dim } from '../tensor/shape.js';
import { assertNever, printDim } from './types.js';

export type Attribute =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'dtype'; readonly value: DType }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'floats'; readonly value: readonly number[] }
  | { readonly kind: 'array'; readonly value: readonly Attribute[] }
  | { readonly kind: 'none' }
  /** A shape whose dims may be symbols or -1 (pd_op.data's shape). */
  | { readonly kind: 'shape'; readonly value: readonly Dim[] };

export type AttrKind = Attribute['kind'];

/** Constructors, one per kind: `Attr.int(3)`, `Attr.ints([2, 3])`, `Attr.none`. */
export const Attr = {
  int(value: number): Attribute {
    // Beyond 2^53 a JS number is not an exact integer; refusing it keeps the text form exact.
    if (!Number.isSafeInteger(value)) throw new TypeError(`int attribute must be a safe integer, got ${value}`);
    return { kind: 'int', value: value === 0 ? 0 : value };  // no -0 among ints
  },
  float: (value: number): Attribute => ({ kind: 'float', value }),
  bool: (value: boolean): Attribute => ({ kind: 'bool', value }),
  str: (value: string): Attribute => ({ kind: 'str', value }),
  dtype: (value: DType): Attribute => ({ kind: 'dtype', value }),
  ints(value: readonly number[]): Attribute {
    for (const v of value) if (!Number.isSafeInteger(v)) throw new TypeError(`int array attribute must hold safe integers, got ${v}`);
    return { kind: 'ints', value: value.map((v) => (v === 0 ? 0 : v)) };
  },
  floats: (value: readonly number[]): Attribute => ({ kind: 'floats', value: [...value] }),
  array: (value: readonly Attribute[]): Attribute => ({ kind: 'array', value: [...value] }),
  none: { kind: 'none' } as Attribute,
  shape: (value: readonly Dim[]): Attribute => ({ kind: 'shape', value: [...value] }),
} as const;

export type AttributeMap = ReadonlyMap<string, Attribute>;

export function attrEq(a: Attribute, b: Attribute): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'none': return true;
    case 'int': case 'bool': case 'str': case 'dtype':
      return a.value === (b as typeof a).value;
    case 'float': return Object.is(a.value, (b as typeof a).value);
    case 'ints': case 'floats': case 'shape': {
      const v = (b as typeof a).value;
      return a.value.length === v.length && a.value.every((x, i) => Object.is(x, v[i]));
    }
    case 'array': {
      const v = (b as typeof a).value;
      return a.value.length === v.length && a.value.every((x, i) => attrEq(x, v[i]));
    }
    default: return assertNever(a, 'attribute');
  }
}

/** Shortest text that reads back as the same double, always marked as a float (`1.0`, `1e+21`, `nan`). */
export function printFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v);  // ECMAScript Number::toString is the shortest round-trip form
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}

/** Attribute names print bare when they are identifiers, quoted otherwise. */
export const printAttrName = (name: string): string => (/^[A-Za-z_][\w.]*$/.test(name) ? name : JSON.stringify(name));

export function printAttr(a: Attribute): string {
  switch (a.kind) {
    case 'int': return String(a.value);
    case 'float': return printFloat(a.value);
    case 'bool': return a.value ? 'true' : 'false';
    case 'str': return JSON.stringify(a.value);
    case 'dtype': return a.value;
    case 'ints': return `i64[${a.value.join(', ')}]`;
    case 'floats': return `f64[${a.value.map(printFloat).join(', ')}]`;
    case 'array': return `[${a.value.map(printAttr).join(', ')}]`;
    case 'none': return 'none';
    case 'shape': return `shape[${a.value.map(printDim).join(', ')}]`;
    default: return assertNever(a, 'attribute');
  }
}

export function printAttrDict(attrs: AttributeMap): string {
  const parts: string[] = [];
  for (const [k, v] of attrs) parts.push(`${printAttrName(k)}:${printAttr(v)}`);
  return `{${parts.join(', ')}}`;
}

// ---- registry attribute values (src/ops AttrValue) <-> attributes ----

/**
 * The attribute for an op-registry value, guided by its declared type: `float` values always
 * become floats (so `1` prints `1.0`), `scalar` values keep their own int/float nature,
 * `int[]` accepts a single int (Paddle's IntArray) and `float[]` a single float, null becomes `none`. Throws naming `where`.
 */
export function toAttribute(spec: AttrSpec | undefined, v: AttrValue | undefined, where: string): Attribute {
  if (v === undefined) throw new TypeError(`${where}: missing attribute '${spec?.name ?? '?'}'`);
  if (v === null) return Attr.none;
  const bad = (): never => { throw new TypeError(`${where}: attribute '${spec?.name}' (${spec?.type}) got ${JSON.stringify(v)}`); };
  if (!spec) return fromJs(v, where);
  switch (spec.type) {
    case 'int': return typeof v === 'number' && Number.isSafeInteger(v) ? Attr.int(v) : bad();
    case 'float': return typeof v === 'number' ? Attr.float(v) : bad();
    case 'bool': return typeof v === 'boolean' ? Attr.bool(v) : bad();
    case 'str': return typeof v === 'string' ? Attr.str(v) : bad();
    case 'dtype': return typeof v === 'string' ? Attr.dtype(toDType(v)) : bad();
    case 'int[]':
      if (typeof v === 'number') return Number.isSafeInteger(v) ? Attr.int(v) : bad();
      // Paddle's padding also takes 'SAME' / 'VALID' and nested per-dim pairs.
      if (typeof v === 'string') return Attr.str(v);
      if (Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r) && r.every((x: unknown) => Number.isSafeInteger(x)))) {
        return Attr.array((v as unknown as number[][]).map((r) => Attr.ints(r)));
      }
      return Array.isArray(v) && v.every((x) => Number.isSafeInteger(x)) ? Attr.ints(v) : bad();
    case 'float[]':
      if (typeof v === 'number') return Attr.float(v);  // a single float (interpolate's scale_factor)
      return Array.isArray(v) && v.every((x) => typeof x === 'number') ? Attr.floats(v) : bad();
    case 'scalar':
      if (typeof v === 'boolean') return Attr.bool(v);
      return typeof v === 'number' ? (Number.isSafeInteger(v) && !Object.is(v, -0) ? Attr.int(v) : Attr.float(v)) : bad();
    default: return assertNever(spec.type, 'attribute type');
  }
}

/** An attribute for a plain JS value (no declared type): integers become ints, lists int/float arrays. */
export function fromJs(v: unknown, where: string): Attribute {
  if (v === null) return Attr.none;
  if (typeof v === 'boolean') return Attr.bool(v);
  if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) ? Attr.int(v) : Attr.float(v);
  if (typeof v === 'string') return Attr.str(v);
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((x) => Number.isSafeInteger(x))) return Attr.ints(v);
    if (v.length > 0 && v.every((x) => typeof x === 'number')) return Attr.floats(v);
    return Attr.array(v.map((x) => fromJs(x, where)));
  }
  if (v !== null && typeof v === 'object' && 'kind' in v) return v as Attribute;
  throw new TypeError(`${where}: cannot make an attribute of ${String(v)}`);
}

/** The registry value of an attribute (what OpDef.infer/encode read). Shapes must be static. */
export function toAttrValue(a: Attribute, where: string): AttrValue {
  switch (a.kind) {
    case 'none': return null;
    case 'int': case 'float': case 'bool': case 'str': case 'dtype': return a.value;
    case 'ints': case 'floats': return a.value;
    case 'shape':
      if (a.value.every((d) => typeof d === 'number')) return a.value as number[];
      throw new TypeError(`${where}: symbolic shape ${printAttr(a)} has no registry value`);
    case 'array':
      if (a.value.length === 0) return [];
      if (a.value.every((x) => x.kind === 'ints')) return a.value.map((x) => x.value) as unknown as AttrValue;  // nested padding pairs
      throw new TypeError(`${where}: a generic array attribute has no registry value`);
    default: return assertNever(a, 'attribute');
  }
}

/** Whether attribute kind `a` may stand for a registry attribute of `spec`'s type. */
export function attrFits(spec: AttrSpec, a: Attribute): boolean {
  if (a.kind === 'none') return spec.default === null;
  switch (spec.type) {
    case 'int': return a.kind === 'int';
    case 'float': return a.kind === 'float' || a.kind === 'int';
    case 'bool': return a.kind === 'bool';
    case 'str': return a.kind === 'str';
    case 'dtype': return a.kind === 'dtype' || (a.kind === 'str' && isDType(a.value));
    case 'int[]': return a.kind === 'ints' || a.kind === 'int' || a.kind === 'str' || (a.kind === 'array' && a.value.every((x) => x.kind === 'ints'));
    case 'float[]': return a.kind === 'floats' || a.kind === 'ints' || a.kind === 'float' || a.kind === 'int' || (a.kind === 'array' && a.value.length === 0);
    case 'scalar': return a.kind === 'int' || a.kind === 'float' || a.kind === 'bool';
    default: return assertNever(spec.type, 'attribute type');
  }
}

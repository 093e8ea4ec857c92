// Runtime values as the translator and the trace tree see them: real tensors, Python/JS
// constants with their type kept (2, 2.0 and True are distinct), structured containers, and
// opaque host objects referenced by identity.
import type { Tensor } from '../src/tensor/tensor.js';

/** A host object (a Python object, a JS object) known by identity. `handle` is host-specific. */
export interface HostRef {
  /** Identity that survives across calls while the object is alive (Python id(), a JS object). */
  readonly id: number | object;
  /** The host's type name (for messages and guards), e.g. 'function', 'Linear', 'module'. */
  readonly typeName: string;
  /** Identity of the object's type, where the host has one (type guards). */
  readonly typeId?: number | object;
  /** Host-specific reference (a PyProxy kept alive by the tree, or the JS object itself). */
  readonly handle: unknown;
}

export type RtValue =
  | { readonly k: 'tensor'; readonly t: Tensor }
  | { readonly k: 'int'; readonly v: number | bigint }
  | { readonly k: 'float'; readonly v: number }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'none' }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'tuple'; readonly items: readonly RtValue[] }
  | { readonly k: 'list'; readonly items: readonly RtValue[]; readonly ref?: HostRef }
  | { readonly k: 'dict'; readonly keys: readonly RtValue[]; readonly values: readonly RtValue[]; readonly ref?: HostRef }
  | { readonly k: 'obj'; readonly ref: HostRef; readonly np?: NumpyInfo };

/**
 * What the host tells about a NumPy value with its identity (frontend/python/sot/numpy_values.ts):
 * a scalar's dtype and the Python number it holds, or an array's dtype and the tensor holding its
 * data. Such values are guarded by these, not by identity.
 */
export type NumpyInfo =
  | { readonly kind: 'scalar'; readonly dtype: string; readonly value: Extract<RtValue, { k: 'int' | 'float' | 'bool' }> }
  | { readonly kind: 'array'; readonly dtype: string; readonly t: Tensor };

export const NONE: RtValue = { k: 'none' };
export const rtInt = (v: number | bigint): RtValue => ({ k: 'int', v });
export const rtFloat = (v: number): RtValue => ({ k: 'float', v });
export const rtBool = (v: boolean): RtValue => ({ k: 'bool', v });
export const rtStr = (v: string): RtValue => ({ k: 'str', v });

export type ConstKind = 'int' | 'float' | 'bool' | 'none' | 'str';
export const isConst = (v: RtValue): v is Extract<RtValue, { k: ConstKind }> =>
  v.k === 'int' || v.k === 'float' || v.k === 'bool' || v.k === 'none' || v.k === 'str';

/** Equality of constants including their type (Python: 2 == 2.0 == True, but guards need all three apart). */
export function sameConst(a: RtValue, b: RtValue): boolean {
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'none': return true;
    case 'float': return Object.is((a as { v: number }).v, (b as { v: number }).v) || (a as { v: number }).v === (b as { v: number }).v;
    case 'int': case 'bool': case 'str': return (a as { v: unknown }).v === (b as { v: unknown }).v;
    default: return false;
  }
}

/** Short human form, Python-flavoured, for logs and explain(). */
export function showValue(v: RtValue): string {
  switch (v.k) {
    case 'tensor': return `Tensor(${JSON.stringify(v.t.shape)}, ${v.t.dtype})`;
    case 'int': return String(v.v);
    case 'float': return Number.isInteger(v.v) ? `${v.v}.0` : String(v.v);
    case 'bool': return v.v ? 'True' : 'False';
    case 'none': return 'None';
    case 'str': return JSON.stringify(v.v);
    case 'tuple': return `(${v.items.map(showValue).join(', ')}${v.items.length === 1 ? ',' : ''})`;
    case 'list': return `[${v.items.map(showValue).join(', ')}]`;
    case 'dict': return `{${v.keys.map((k, i) => `${showValue(k)}: ${showValue(v.values[i])}`).join(', ')}}`;
    case 'obj': return `<${v.ref.typeName}>`;
  }
}

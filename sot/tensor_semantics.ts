// What operators and attributes mean on tensors, for every frontend: operator symbols map to
// registry ops, true division of integer tensors goes through float32 (as compat's Tensor and
// Paddle do), and scalar operands keep their language kind for dtype promotion.
import { getOp, hasOp } from '../src/ops/registry.js';
import { resolveAttrs, runOpDef, type TensorLike } from '../src/ops/dispatch.js';
import type { AttrValue, OpDef } from '../src/ops/types.js';
import { type DType, isFloating, promoteTypes, promoteWithScalar } from '../src/tensor/dtype.js';
import { scalarTensor } from '../src/ops/scalar.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';

/** A scalar with the kind its language gave it (Python: 2, 2.0 and True differ). */
export interface TypedScalar { readonly scalar: number | boolean; readonly kind: 'int' | 'float' | 'bool' }
export const isTypedScalar = (v: unknown): v is TypedScalar => typeof v === 'object' && v !== null && 'scalar' in v && 'kind' in v;

/** Binary operator symbol -> candidate registry ops (first registered wins), and true-division. */
export const BINARY_OPS: Readonly<Record<string, { ops: readonly string[]; trueDiv?: boolean }>> = {
  '+': { ops: ['add'] }, '-': { ops: ['subtract'] }, '*': { ops: ['multiply'] }, '/': { ops: ['divide'], trueDiv: true },
  '//': { ops: ['floor_divide'] }, '%': { ops: ['remainder', 'mod', 'floor_mod'] }, '**': { ops: ['elementwise_pow', 'pow'] },
  '@': { ops: ['matmul'] }, '&': { ops: ['bitwise_and', 'logical_and'] }, '|': { ops: ['bitwise_or', 'logical_or'] },
  '^': { ops: ['bitwise_xor', 'logical_xor'] },
  '==': { ops: ['equal'] }, '!=': { ops: ['not_equal'] }, '<': { ops: ['less_than'] }, '<=': { ops: ['less_equal'] },
  '>': { ops: ['greater_than'] }, '>=': { ops: ['greater_equal'] },
};

/** Python's reflected comparison: `1 < x` runs x.__gt__(1). */
export const REFLECTED_COMPARE: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };

export function binaryOpDef(sym: string): OpDef | null {
  const e = BINARY_OPS[sym.endsWith('=') && sym.length > 1 && !['==', '!=', '<=', '>='].includes(sym) ? sym.slice(0, -1) : sym];
  if (!e) return null;
  for (const n of e.ops) if (hasOp(n)) return getOp(n);
  return null;
}

export function isTrueDiv(sym: string): boolean { return sym === '/' || sym === '/='; }

/**
 * Runs (or records, when the inputs are symbolic) an op with arguments in Python's binding
 * style: inputs may be tensors or typed scalars, attributes plain values; null/None for an
 * attribute with a default means "the default".
 */
export function callWithTypedArgs(def: OpDef, inputs: readonly (TensorLike | TypedScalar | readonly TensorLike[] | null | undefined)[], attrs: Readonly<Record<string, unknown>>): TensorLike[] {
  const flat: (TensorLike | null)[] = [];
  const scalars: { index: number; s: TypedScalar }[] = [];
  def.inputs.forEach((spec, i) => {
    const v = inputs[i];
    if (spec.variadic) {
      if (!Array.isArray(v)) throw new TypeError(`${def.name}(): '${spec.name}' must be a list of tensors`);
      for (const t of v as TensorLike[]) flat.push(t);
    } else if (v === null || v === undefined) {
      if (!spec.optional) throw new TypeError(`${def.name}() missing required argument '${spec.name}'`);
      flat.push(null);
    } else if (isTypedScalar(v)) { scalars.push({ index: flat.length, s: v }); flat.push(null); }
    else flat.push(v as TensorLike);
  });
  const given: Record<string, AttrValue> = {};
  for (const a of def.attrs) {
    const v = attrs[a.name];
    if (v === undefined || (v === null && a.default !== undefined)) continue;
    given[a.name] = v as AttrValue;
  }
  const resolved = resolveAttrs(def, given);
  if (scalars.length || def.api?.promote) {
    let dt: DType | null = null;
    for (const x of flat) if (x) dt = dt === null ? x.dtype : promoteTypes(dt, x.dtype);
    for (const { s } of scalars) dt = dt === null ? (s.kind === 'float' ? 'float32' : s.kind === 'int' ? 'int64' : 'bool') : promoteWithScalar(dt, s.kind);
    for (const { index, s } of scalars) flat[index] = scalarTensor(s.scalar, dt!);
    if (def.api?.promote && dt !== null) {
      for (let i = 0; i < flat.length; i++) {
        const x = flat[i];
        if (x && x.dtype !== dt) flat[i] = runOpDef(getOp('cast'), [x], resolveAttrs(getOp('cast'), { dtype: dt }))[0];
      }
    }
  }
  return runOpDef(def, flat, resolved);
}

/** True when a tensor dtype needs a cast to float32 before true division. */
export const needsFloatForDiv = (d: DType): boolean => !isFloating(d);

/**
 * Python's truth of `t <sym> s` for a real one-element tensor and a typed scalar, computed with
 * the op the operator runs (so dtype promotion is eager's). For value guards (sot/guards.ts).
 */
export function tensorScalarTruth(t: Tensor, sym: string, s: TypedScalar): boolean {
  const def = binaryOpDef(sym);
  if (!def) throw new Error(`tensorScalarTruth: no op for ${sym}`);
  return scope(() => (callWithTypedArgs(def, [t, s], {})[0] as Tensor).item() === true);
}

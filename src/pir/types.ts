// PIR types: tensors (dtype + dims that are numbers, -1 for unknown, or SymDim symbols),
// scalars (i64, f32, bool, ...) and vectors (lists of values, as produced by builtin.combine).
// Types are immutable and compared structurally with typeEq; `toString()` is their text form.
import type { DType } from '../tensor/dtype.js';
import { type Dim, SymDim } from '../tensor/shape.js';

/** Short dtype names used inside types (`tensor<2x3xf32>`, scalar `i64`). */
export const DTYPE_SHORT: Readonly<Record<DType, string>> = {
  float32: 'f32', float64: 'f64', int32: 'i32', int64: 'i64', bool: 'bool',
  int8: 'i8', uint8: 'u8', float16: 'f16', bfloat16: 'bf16',
};
export const SHORT_DTYPE: Readonly<Record<string, DType>> = Object.fromEntries(
  Object.entries(DTYPE_SHORT).map(([k, v]) => [v, k as DType]),
);

/** -1 in a shape: a dimension nothing is known about (Paddle's convention; printed `?`). */
export const UNKNOWN_DIM = -1;

// A bare symbol may not contain the dim separator `x`; other expressions print in parentheses.
const BARE_SYMBOL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Text of one dim: `3`, `?`, `s0`, or `(s0*2)` for expressions and names containing `x`. */
export function printDim(d: Dim): string {
  if (typeof d === 'number') return d === UNKNOWN_DIM ? '?' : String(d);
  return BARE_SYMBOL.test(d.expr) && !d.expr.includes('x') ? d.expr : `(${d.expr})`;
}

export class TensorType {
  readonly kind = 'tensor' as const;
  constructor(readonly dtype: DType, readonly shape: readonly Dim[]) {}
  get rank(): number { return this.shape.length; }
  /** True when every dim is a known number (no -1, no symbol). */
  get isStatic(): boolean { return this.shape.every((d) => typeof d === 'number' && d >= 0); }
  toString(): string {
    return `tensor<${this.shape.map((d) => `${printDim(d)}x`).join('')}${DTYPE_SHORT[this.dtype]}>`;
  }
}

export class ScalarType {
  readonly kind = 'scalar' as const;
  constructor(readonly dtype: DType) {}
  toString(): string { return DTYPE_SHORT[this.dtype]; }
}

export class VectorType {
  readonly kind = 'vector' as const;
  constructor(readonly elements: readonly Type[]) {}
  toString(): string { return `vec[${this.elements.map(String).join(', ')}]`; }
}

export type Type = TensorType | ScalarType | VectorType;

export const tensorType = (dtype: DType, shape: readonly Dim[]): TensorType => new TensorType(dtype, [...shape]);
export const scalarType = (dtype: DType): ScalarType => new ScalarType(dtype);
export const vectorType = (elements: readonly Type[]): VectorType => new VectorType([...elements]);
export const i64 = scalarType('int64');
export const f32 = scalarType('float32');
export const bool = scalarType('bool');

export function typeEq(a: Type | null, b: Type | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'tensor': {
      const t = b as TensorType;
      return a.dtype === t.dtype && a.shape.length === t.shape.length && a.shape.every((d, i) => d === t.shape[i]);
    }
    case 'scalar': return a.dtype === (b as ScalarType).dtype;
    case 'vector': {
      const v = b as VectorType;
      return a.elements.length === v.elements.length && a.elements.every((e, i) => typeEq(e, v.elements[i]));
    }
    default: return assertNever(a);
  }
}

/**
 * `declared` is compatible with `inferred` when equal, or when they differ only where one side
 * has an unknown (-1) dim: a pass may refine a dim that inference left unknown, and the other way.
 */
export function typeCompatible(declared: Type, inferred: Type): boolean {
  if (declared.kind === 'tensor' && inferred.kind === 'tensor') {
    return declared.dtype === inferred.dtype && declared.rank === inferred.rank &&
      declared.shape.every((d, i) => d === inferred.shape[i] || d === UNKNOWN_DIM || inferred.shape[i] === UNKNOWN_DIM);
  }
  if (declared.kind === 'vector' && inferred.kind === 'vector') {
    return declared.elements.length === inferred.elements.length && declared.elements.every((e, i) => typeCompatible(e, inferred.elements[i]));
  }
  return typeEq(declared, inferred);
}

// Registry infer rules work on Dims and know nothing of -1; each unknown dim becomes a private
// symbol for the call (`?0`, `?1`: `?` never appears in parsed symbols) and maps back to -1.
const UNKNOWN_SYMS: SymDim[] = [];
const unknownSym = (i: number): SymDim => (UNKNOWN_SYMS[i] ??= SymDim.of(`?${i}`));

export class UnknownDims {
  private n = 0;
  /** Shape with every -1 replaced by a fresh private symbol. */
  lift(shape: readonly Dim[]): Dim[] { return shape.map((d) => (d === UNKNOWN_DIM ? unknownSym(this.n++) : d)); }
  /** Shape with every dim that mentions a private symbol turned back into -1. */
  static lower(shape: readonly Dim[]): Dim[] {
    return shape.map((d) => (typeof d !== 'number' && d.expr.includes('?') ? UNKNOWN_DIM : d));
  }
}

export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(x)}`);
}

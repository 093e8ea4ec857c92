// Skiff's dtypes. Codes are shared with native/src/dtype.h.
export type DType = 'float32' | 'float64' | 'int32' | 'int64' | 'bool' | 'int8' | 'uint8' | 'float16' | 'bfloat16';

export const DTYPES: readonly DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'int8', 'uint8', 'float16', 'bfloat16'];
export const DTYPE_CODE: Readonly<Record<DType, number>> = {
  float32: 0, float64: 1, int32: 2, int64: 3, bool: 4, int8: 5, uint8: 6, float16: 7, bfloat16: 8,
};
export const ITEMSIZE: Readonly<Record<DType, number>> = {
  float32: 4, float64: 8, int32: 4, int64: 8, bool: 1, int8: 1, uint8: 1, float16: 2, bfloat16: 2,
};

const ALIASES: Record<string, DType> = {
  float: 'float32', double: 'float64', int: 'int64', long: 'int64', half: 'float16',
  fp32: 'float32', fp64: 'float64', fp16: 'float16', bf16: 'bfloat16',
};

export function isDType(s: unknown): s is DType { return typeof s === 'string' && (DTYPES as readonly string[]).includes(s); }

/** Accepts 'float32', 'paddle.float32', aliases ('float', 'int'); throws naming the bad value. */
export function toDType(s: string): DType {
  const name = s.startsWith('paddle.') ? s.slice(7) : s;
  if (isDType(name)) return name;
  const a = ALIASES[name];
  if (a) return a;
  throw new TypeError(`unknown dtype '${s}'; expected one of ${DTYPES.join(', ')}`);
}

export const isFloating = (d: DType): boolean => d === 'float32' || d === 'float64' || d === 'float16' || d === 'bfloat16';
export const isInteger = (d: DType): boolean => d === 'int32' || d === 'int64' || d === 'int8' || d === 'uint8';

// Promotion lattice used by Paddle 2.6 for tensor-tensor ops (its type-promotion table for
// the float types, numpy's for integers; uint8 with int8 goes to int16, which Skiff lacks: int32).
const RANK: Record<DType, number> = { bool: 0, uint8: 1, int8: 1, int32: 2, int64: 3, float16: 4, bfloat16: 4, float32: 5, float64: 6 };

export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if ((a === 'float16' && b === 'bfloat16') || (a === 'bfloat16' && b === 'float16')) return 'float32';
  if ((a === 'uint8' && b === 'int8') || (a === 'int8' && b === 'uint8')) return 'int32';
  return RANK[a] >= RANK[b] ? a : b;
}

/** dtype of `tensor op scalar`: a Python/JS scalar does not widen the tensor within its kind. */
export function promoteWithScalar(t: DType, scalar: 'bool' | 'int' | 'float'): DType {
  if (scalar === 'float' && !isFloating(t)) return 'float32';
  if (scalar === 'int' && t === 'bool') return 'int64';
  return t;
}

/** Typed array class holding a dtype's storage (half types as raw uint16 bits). */
export function typedArrayFor(d: DType): { new (buf: ArrayBuffer | number): ArrayBufferView & ArrayLike<number | bigint> } {
  switch (d) {
    case 'float32': return Float32Array as never;
    case 'float64': return Float64Array as never;
    case 'int32': return Int32Array as never;
    case 'int64': return BigInt64Array as never;
    case 'bool': case 'uint8': return Uint8Array as never;
    case 'int8': return Int8Array as never;
    case 'float16': case 'bfloat16': return Uint16Array as never;
  }
}

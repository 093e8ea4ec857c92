// Shapes whose dims are numbers or symbols. Shape inference is written once against `Dim`, so
// captured graphs with a dynamic batch or sequence length carry symbols through every op.
// A symbolic dim is an interned expression over named symbols; equal expressions are the same object.

export class SymDim {
  private static table = new Map<string, SymDim>();
  private constructor(readonly expr: string) {}
  static of(expr: string): SymDim {
    let s = SymDim.table.get(expr);
    if (!s) { s = new SymDim(expr); SymDim.table.set(expr, s); }
    return s;
  }
  toString(): string { return this.expr; }
  private static freshCount = 0;
  /**
   * A new symbol equal to no other dim (not interned, so eager calls do not grow the table):
   * the data-dependent dims of OpDef.dynamicShape ops (the length of masked_select's result).
   */
  static fresh(prefix: string): SymDim { return new SymDim(`${prefix}${SymDim.freshCount++}`); }
}

export type Dim = number | SymDim;
export type Shape = readonly Dim[];

export const sym = (name: string): SymDim => SymDim.of(name);
export const isStatic = (s: Shape): s is readonly number[] => s.every((d) => typeof d === 'number');
export const dimStr = (d: Dim): string => (typeof d === 'number' ? String(d) : d.expr);
export const shapeStr = (s: Shape): string => `[${s.map(dimStr).join(', ')}]`;

const wrap = (d: Dim): string => (typeof d === 'number' ? String(d) : /^[A-Za-z_]\w*$/.test(d.expr) ? d.expr : `(${d.expr})`);

export function dimMul(a: Dim, b: Dim): Dim {
  if (typeof a === 'number' && typeof b === 'number') return a * b;
  if (a === 1) return b;
  if (b === 1) return a;
  if (a === 0 || b === 0) return 0;
  return SymDim.of(`${wrap(a)}*${wrap(b)}`);
}
export function dimAdd(a: Dim, b: Dim): Dim {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a === 0) return b;
  if (b === 0) return a;
  return SymDim.of(`${wrap(a)}+${wrap(b)}`);
}
export function dimSub(a: Dim, b: Dim): Dim {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (b === 0) return a;
  if (a === b) return 0;
  return SymDim.of(`${wrap(a)}-${wrap(b)}`);
}
export function dimFloorDiv(a: Dim, b: Dim): Dim {
  if (typeof a === 'number' && typeof b === 'number') return Math.floor(a / b);
  if (b === 1) return a;
  return SymDim.of(`${wrap(a)}//${wrap(b)}`);
}
export const dimEq = (a: Dim, b: Dim): boolean => a === b;

export function numel(s: Shape): Dim {
  let n: Dim = 1;
  for (const d of s) n = dimMul(n, d);
  return n;
}

/** numpy/paddle broadcasting over Dims; throws naming the op and both shapes. */
export function broadcastShapes(a: Shape, b: Shape, op: string): Dim[] {
  const n = Math.max(a.length, b.length);
  const out: Dim[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const da = i < n - a.length ? 1 : a[i - (n - a.length)];
    const db = i < n - b.length ? 1 : b[i - (n - b.length)];
    if (da === db || db === 1) out[i] = da;
    else if (da === 1) out[i] = db;
    else if (typeof da !== 'number' || typeof db !== 'number') out[i] = typeof da === 'number' ? db : da; // symbols: assume equal (guarded at run time)
    else throw new ShapeError(`${op}: shapes ${shapeStr(a)} and ${shapeStr(b)} cannot be broadcast`);
  }
  return out;
}

/** Normalises an axis into [0, rank); negative axes count from the end. */
export function normAxis(axis: number, rank: number, op: string): number {
  const r = Math.max(rank, 1);
  if (!Number.isInteger(axis) || axis < -r || axis >= r) throw new RangeError(`${op}: axis ${axis} is out of range for a tensor of rank ${rank}`);
  return axis < 0 ? axis + r : axis;
}

export function contiguousStrides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) { s[i] = acc; acc *= shape[i]; }
  return s;
}

/** Errors about shapes; mapped to Python's ValueError by the bridge. */
export class ShapeError extends Error { override name = 'ShapeError'; }

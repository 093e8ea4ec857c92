// Tensor printing in Paddle's format — the one implementation: TS `String(t)` uses it and Python's
// `repr(t)` reaches it through the bridge, so both languages print identically.
//
//   Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
//          [[1., 2., 3.],
//           [4., 5., 6.]])
//
// Floats with an integral value print as `2.`, others with `precision` decimals; every element is
// padded to one width (plus a sign column when any element is negative). Above `threshold`
// elements only the first and last `edgeitems` of each dimension are printed, with `...` between;
// only those elements are decoded, so printing a huge tensor costs a copy, not a string per element.
import type { DType } from './dtype.js';

export interface PrintOptions { precision: number; threshold: number; edgeitems: number; linewidth: number; sci_mode: boolean }

export const printOptions: PrintOptions = { precision: 8, threshold: 1000, edgeitems: 3, linewidth: 80, sci_mode: false };

/** paddle.set_printoptions: only the given options change; bad values are rejected before any change. */
export function set_printoptions(opts: Partial<PrintOptions>): void {
  for (const k of ['precision', 'threshold', 'edgeitems', 'linewidth'] as const) {
    const v = opts[k];
    if (v !== undefined && v !== null && !(Number.isInteger(v) && v >= 0)) throw new TypeError(`set_printoptions: ${k} must be a non-negative integer, got ${String(v)}`);
  }
  for (const k of Object.keys(opts) as (keyof PrintOptions)[]) {
    if (!(k in printOptions)) throw new TypeError(`set_printoptions: unknown option '${k}'`);
    const v = opts[k];
    if (v !== undefined && v !== null) (printOptions as unknown as Record<string, unknown>)[k] = k === 'sci_mode' ? Boolean(v) : v;
  }
}

/** What the formatter needs from a tensor: its row-major elements (int64 as bigint) and metadata. */
export interface Printable {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly stop_gradient: boolean;
  rawData(): ArrayLike<number | bigint>;
}

type Decode = (raw: number | bigint) => number | boolean | bigint;

function itemStr(v: number | boolean | bigint, floating: boolean, o: PrintOptions): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint' || !floating) return String(v);
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf.' : '-inf.';
  if (o.sci_mode) {
    // Python's '%.8e': at least two exponent digits.
    const [m, e] = v.toExponential(o.precision).split('e');
    const sign = e[0] === '-' ? '-' : '+';
    const digits = e.replace(/^[-+]/, '');
    return `${m}e${sign}${digits.length < 2 ? '0' + digits : digits}`;
  }
  if (Number.isInteger(v)) return `${Object.is(v, -0) ? '-0' : v.toFixed(0)}.`;
  return v.toFixed(o.precision);
}

const isNegative = (v: number | boolean | bigint): boolean => (typeof v === 'boolean' ? false : v < 0);

/** Flat offsets of the printed elements along one dimension: all, or the edges around a gap (null). */
function edges(n: number, summary: boolean, e: number): (number | null)[] {
  if (summary && n > 2 * e) {
    const out: (number | null)[] = [];
    for (let i = 0; i < e; i++) out.push(i);
    out.push(null);
    for (let i = n - e; i < n; i++) out.push(i);
    return out;
  }
  return Array.from({ length: n }, (_, i) => i);
}

/** The data part: nested brackets, indented to sit under `indent` columns of prefix. */
export function formatData(t: Printable, indent: number, decode: Decode, o: PrintOptions = printOptions): string {
  const shape = t.shape;
  const raw = t.rawData();
  const n = shape.reduce((a, b) => a * b, 1);
  const summary = shape.length > 0 && n > o.threshold;
  const floating = t.dtype.startsWith('float') || t.dtype === 'bfloat16';
  const strides = new Array<number>(shape.length);
  for (let d = shape.length - 1, s = 1; d >= 0; d--) { strides[d] = s; s *= shape[d]; }

  // First pass: the printed elements decide the common width and the sign column.
  let width = 0;
  let signed = false;
  const visit = (d: number, off: number): void => {
    if (d === shape.length) {
      const v = decode(raw[off]);
      width = Math.max(width, itemStr(v, floating, o).length);
      if (isNegative(v)) signed = true;
      return;
    }
    for (const i of edges(shape[d], summary, o.edgeitems)) if (i !== null) visit(d + 1, off + i * strides[d]);
  };
  if (n > 0) visit(0, 0);

  const pad = (v: number | boolean | bigint): string => {
    const s = itemStr(v, floating, o);
    if (width <= s.length) return s;
    return signed && !isNegative(v) ? ' ' + s.padEnd(width - 1) : s.padEnd(width);
  };
  const fmt = (d: number, off: number, ind: number): string => {
    if (d === shape.length) return pad(decode(raw[off]));
    const idx = edges(shape[d], summary, o.edgeitems);
    if (d === shape.length - 1) {
      const items = idx.map((i) => (i === null ? '...' : pad(decode(raw[off + i * strides[d]]))));
      const perLine = Math.max(1, Math.floor((o.linewidth - ind) / (width + 2)));
      const lines: string[] = [];
      for (let i = 0; i < items.length; i += perLine) lines.push(items.slice(i, i + perLine).join(', '));
      return `[${lines.join(',\n' + ' '.repeat(ind + 1))}]`;
    }
    const parts = idx.map((i) => (i === null ? '...' : fmt(d + 1, off + i * strides[d], ind + 1)));
    const rest = shape.length - d - 1;
    return `[${parts.join(',' + '\n'.repeat(rest) + ' '.repeat(ind + 1))}]`;
  };
  return fmt(0, 0, indent);
}

/** `Tensor(shape=..., dtype=..., place=Place(cpu), stop_gradient=..., <data>)`. */
export function formatTensor(t: Printable, decode: Decode, prefix = 'Tensor'): string {
  const indent = prefix.length + 1;
  const head = `${prefix}(shape=[${t.shape.join(', ')}], dtype=${t.dtype}, place=Place(cpu), stop_gradient=${t.stop_gradient ? 'True' : 'False'},`;
  return `${head}\n${' '.repeat(indent)}${formatData(t, indent, decode)})`;
}

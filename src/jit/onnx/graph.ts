// The ONNX graph being built by the exporter: nodes, initializers and unique names, plus the
// small node patterns the converters share (constants, casts, reshaping to a PIR type whose
// dims may be symbolic). Plain objects shaped like onnx.proto messages; schema.ts encodes them.
import type { Value } from '../../pir/index.js';
import type { DType } from '../../tensor/dtype.js';
import type { Dim } from '../../tensor/shape.js';
import { AttrType, OnnxDType } from './schema.js';

export type OnnxAttr = number | string | readonly number[] | { floats: readonly number[] } | { tensor: OnnxTensor } | { graph: Record<string, unknown> };

export interface OnnxTensor { name?: string; dims: number[]; data_type: number; raw_data: Uint8Array }

const ONNX_OF: Partial<Record<DType, number>> = {
  float32: OnnxDType.FLOAT, float64: OnnxDType.DOUBLE, int32: OnnxDType.INT32, int64: OnnxDType.INT64, bool: OnnxDType.BOOL,
  int8: OnnxDType.INT8, uint8: OnnxDType.UINT8, float16: OnnxDType.FLOAT16, bfloat16: OnnxDType.BFLOAT16,
};

export function onnxDType(dt: DType, where: string): number {
  const t = ONNX_OF[dt];
  if (t === undefined) throw new TypeError(`onnx export: ${where}: dtype ${dt} has no ONNX type`);
  return t;
}

/** Little-endian bytes of `values` as `dtype` (the layout of TensorProto.raw_data). */
export function encodeValues(dtype: DType, values: readonly (number | boolean | bigint)[]): Uint8Array {
  const n = values.length;
  switch (dtype) {
    case 'float32': return new Uint8Array(Float32Array.from(values as number[]).buffer);
    case 'float64': return new Uint8Array(Float64Array.from(values as number[]).buffer);
    case 'int32': return new Uint8Array(Int32Array.from(values as number[]).buffer);
    case 'int64': { const a = new BigInt64Array(n); for (let i = 0; i < n; i++) a[i] = BigInt(values[i] as number); return new Uint8Array(a.buffer); }
    case 'int8': return new Uint8Array(Int8Array.from(values as number[]).buffer);
    case 'uint8': return Uint8Array.from(values as number[]);
    case 'bool': return Uint8Array.from(values, (v) => (v ? 1 : 0));
    default: throw new TypeError(`onnx export: cannot write constants of dtype ${dtype}`);
  }
}

/** A symbolic dim's ONNX dim_param text (`s0`, `s0*6`). */
export const dimParam = (d: Dim): string => (typeof d === 'number' ? String(d) : d.expr);

function attrProto(name: string, v: OnnxAttr): Record<string, unknown> {
  if (typeof v === 'number') return Number.isInteger(v) ? { name, type: AttrType.INT, i: v } : { name, type: AttrType.FLOAT, f: v };
  if (typeof v === 'string') return { name, type: AttrType.STRING, s: new TextEncoder().encode(v) };
  if (Array.isArray(v)) return { name, type: AttrType.INTS, ints: [...v] };
  if ('floats' in v) return { name, type: AttrType.FLOATS, floats: [...v.floats] };
  if ('tensor' in v) return { name, type: AttrType.TENSOR, t: v.tensor };
  if ('graph' in v) return { name, type: AttrType.GRAPH, g: v.graph };
  throw new TypeError(`onnx export: attribute ${name}: unsupported value`);
}

/** A graph input/output declaration (ValueInfoProto) of a PIR tensor type; symbolic dims as dim_param. */
export function valueInfo(name: string, t: { dtype: DType; shape: readonly Dim[] }): Record<string, unknown> {
  const dim = t.shape.map((d) => (typeof d === 'number' && d >= 0 ? { dim_value: d } : typeof d === 'number' ? {} : { dim_param: dimParam(d) }));
  return { name, type: { tensor_type: { elem_type: onnxDType(t.dtype, name), shape: { dim } } } };
}

export class OnnxGraph {
  /** Nodes of the graph being filled: the main graph, or a control-flow subgraph (see collect). */
  nodes: Record<string, unknown>[] = [];
  readonly initializers: OnnxTensor[] = [];
  private readonly used = new Set<string>();
  private readonly names = new Map<Value, string | string[]>();
  private counter = 0;

  /** A fresh tensor name based on `hint`. */
  fresh(hint: string): string {
    const base = hint.replace(/[^\w.\-/:]/g, '_') || 't';
    let n = base;
    while (this.used.has(n)) n = `${base}_${this.counter++}`;
    this.used.add(n);
    return n;
  }
  reserve(name: string): void { this.used.add(name); }

  bind(v: Value, name: string | string[]): void { this.names.set(v, name); }
  has(v: Value): boolean { return this.names.has(v); }
  /** The ONNX name of a tensor value. */
  name(v: Value, where: string): string {
    const n = this.names.get(v);
    if (typeof n !== 'string') throw new Error(`onnx export: ${where}: operand ${String(v.type)} was not converted${n ? ' (it is a list)' : ''}`);
    return n;
  }
  /** The ONNX names of a vector value (builtin.combine) or of one tensor. */
  list(v: Value, where: string): string[] {
    const n = this.names.get(v);
    if (n === undefined) throw new Error(`onnx export: ${where}: operand ${String(v.type)} was not converted`);
    return typeof n === 'string' ? [n] : n;
  }

  /** Appends a node; returns its output names (fresh ones from `op` when `outs` is a count). */
  node(op: string, inputs: readonly string[], attrs: Record<string, OnnxAttr | undefined> = {}, outs: number | readonly string[] = 1): string[] {
    const outputs = typeof outs === 'number' ? Array.from({ length: outs }, () => this.fresh(op.toLowerCase())) : [...outs];
    const attribute = Object.entries(attrs).filter(([, v]) => v !== undefined).map(([k, v]) => {
      const a = v as OnnxAttr;
      // f32attr(x) marks a FLOAT attribute whose value may be integral (epsilon 1, alpha 2).
      if (typeof a === 'object' && FLOAT_MARK.has(a)) return { name: k, type: AttrType.FLOAT, f: (a as { floats: number[] }).floats[0] };
      return attrProto(k, a);
    });
    this.nodes.push({ op_type: op, input: [...inputs], output: outputs, name: this.fresh(`${op}_node`), attribute });
    return outputs;
  }
  /**
   * The nodes `fn` appends, taken out of the current graph (an If branch or Loop body).
   * Names stay unique across the whole model, and initializers stay in the main graph, which
   * subgraphs may read as outer-scope values.
   */
  collect(fn: () => void): Record<string, unknown>[] {
    const outer = this.nodes;
    this.nodes = [];
    try {
      fn();
      return this.nodes;
    } finally {
      this.nodes = outer;
    }
  }
  /** One-output node. */
  op(op: string, inputs: readonly string[], attrs: Record<string, OnnxAttr | undefined> = {}): string {
    return this.node(op, inputs, attrs, 1)[0];
  }

  /** An initializer holding `values` of `dtype` and shape `dims`. */
  constant(dtype: DType, dims: readonly number[], values: readonly (number | boolean | bigint)[] | Uint8Array, hint = 'const'): string {
    const name = this.fresh(hint);
    const raw = values instanceof Uint8Array ? values : encodeValues(dtype, values);
    this.initializers.push({ name, dims: [...dims], data_type: onnxDType(dtype, name), raw_data: raw });
    return name;
  }
  scalar(dtype: DType, v: number | boolean): string { return this.constant(dtype, [], [v], 'scalar'); }
  ints(vs: readonly number[]): string { return this.constant('int64', [vs.length], vs, 'ints'); }

  cast(x: string, from: DType, to: DType): string {
    return from === to ? x : this.op('Cast', [x], { to: onnxDType(to, 'Cast') });
  }

  /**
   * The 1-D int64 shape tensor for `out` given input `x` of shape `inShape`: static dims as
   * numbers, a symbolic dim copied from the input's dim with the same expression (Shape +
   * Gather), and at most one remaining dim as -1 (Reshape infers it).
   */
  shapeOf(x: string, inShape: readonly Dim[], out: readonly Dim[], where: string): string {
    const key = (d: Dim) => (typeof d === 'number' ? `#${d}` : d.expr);
    const unresolved = out.filter((d) => typeof d !== 'number' && !inShape.some((e) => key(e) === key(d))).length;
    if (unresolved > 1) throw new Error(`onnx export: ${where}: cannot express output shape [${out.map(dimParam).join(', ')}] from input [${inShape.map(dimParam).join(', ')}]`);
    if (out.every((d) => typeof d === 'number' && d >= 0)) return this.ints(out as number[]);
    const shape = this.op('Shape', [x]);
    const parts: string[] = [];
    let pending: number[] = [];
    const flush = () => { if (pending.length) parts.push(this.ints(pending)); pending = []; };
    for (const d of out) {
      if (typeof d === 'number') { pending.push(d); continue; }
      const j = inShape.findIndex((e) => key(e) === key(d));
      if (j < 0) { pending.push(-1); continue; }
      flush();
      parts.push(this.op('Gather', [shape, this.ints([j])], { axis: 0 }));
    }
    flush();
    return parts.length === 1 ? parts[0] : this.op('Concat', parts, { axis: 0 });
  }

  /** Reshape `x` (shape `inShape`) to the PIR shape `out`; no node when they are the same. */
  reshapeTo(x: string, inShape: readonly Dim[], out: readonly Dim[], where: string): string {
    if (inShape.length === out.length && inShape.every((d, i) => d === out[i])) return x;
    return this.op('Reshape', [x, this.shapeOf(x, inShape, out, where)]);
  }
}

/** Objects made by f32attr (a FLOAT attribute, not FLOATS). */
const FLOAT_MARK = new WeakSet<object>();
export function f32attr(x: number): OnnxAttr {
  const o = { floats: [x] };
  FLOAT_MARK.add(o);
  return o;
}

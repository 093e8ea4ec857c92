// What a converter sees of one PIR op: its operands' ONNX names and PIR types, attributes as
// registry values (declared defaults filled in), and a way to bind its results. Converters are
// registered per pd_op name (without the dialect prefix) by convert_*.ts.
import { toAttrValue } from '../../pir/attributes.js';
import type { Operation, TensorType, Value } from '../../pir/index.js';
import type { AttrValue } from '../../ops/types.js';
import type { DType } from '../../tensor/dtype.js';
import type { Dim } from '../../tensor/shape.js';
import type { OnnxGraph } from './graph.js';

export class OpContext {
  constructor(readonly op: Operation, readonly g: OnnxGraph, readonly opset: number) {}

  /** Paddle op name (`conv2d`), used to start error messages. */
  get name(): string { return this.op.name.replace(/^pd_op\./, ''); }

  fail(msg: string): never { throw new Error(`onnx export: ${this.name}: ${msg}`); }

  has(i: number): boolean { return this.op.operand(i) !== null; }
  value(i: number): Value {
    const v = this.op.operand(i);
    if (!v) this.fail(`input ${i} is absent`);
    return v;
  }
  /** ONNX name of operand i. */
  in(i: number): string { return this.g.name(this.value(i), this.name); }
  /** ONNX names of a variadic operand (builtin.combine). */
  list(i: number): string[] { return this.g.list(this.value(i), this.name); }
  /** Types of a variadic operand's elements. */
  listTypes(i: number): TensorType[] {
    const v = this.value(i);
    const t = v.type;
    if (t.kind === 'vector') return t.elements as TensorType[];
    return [t as TensorType];
  }
  type(i: number): TensorType {
    const t = this.value(i).type;
    if (t.kind !== 'tensor') this.fail(`input ${i} must be a tensor, got ${String(t)}`);
    return t;
  }
  shape(i: number): readonly Dim[] { return this.type(i).shape; }
  dtype(i: number): DType { return this.type(i).dtype; }
  rank(i: number): number { return this.type(i).shape.length; }

  outType(i = 0): TensorType {
    const t = this.op.result(i).type;
    if (t.kind !== 'tensor') this.fail(`result ${i} must be a tensor, got ${String(t)}`);
    return t;
  }
  outShape(i = 0): readonly Dim[] { return this.outType(i).shape; }
  outDtype(i = 0): DType { return this.outType(i).dtype; }
  /** True if result i is used by some op (optional outputs such as max_pool2d's mask). */
  used(i: number): boolean { return this.op.result(i).hasUses; }

  /** Attribute as a registry value; the declared default when the op does not carry it. */
  attr<T extends AttrValue = AttrValue>(name: string): T {
    const a = this.op.attr(name);
    if (a) return toAttrValue(a, `onnx export: ${this.name}`) as T;
    const spec = this.op.def?.attrs.find((s) => s.name === name);
    if (!spec) this.fail(`has no attribute '${name}'`);
    return spec.default as T;
  }

  /** Binds result i to an ONNX name. */
  out(name: string, i = 0): void { this.g.bind(this.op.result(i), name); }
}

export type Converter = (c: OpContext) => void;

export const converters = new Map<string, Converter>();

/** Registers one converter under several Paddle op names. */
export function convert(names: string | readonly string[], fn: Converter): void {
  for (const n of typeof names === 'string' ? [names] : names) converters.set(n, fn);
}

/** Normalizes a possibly negative axis against `rank`. */
export const normAxis = (a: number, rank: number): number => (a < 0 ? a + rank : a);

const ORDER: readonly DType[] = ['bool', 'uint8', 'int8', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64'];
/** The dtype two operands meet in (Paddle promotes mixed float widths and int+float). */
export function commonDtype(a: DType, b: DType): DType {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

// ExecGraph: the executor's input, a small language-neutral SSA graph. PIR programs (src/pir)
// are translated into it; tests and tools may build it by hand (GraphBuilder below).
//
//   values   every SSA value: id, dtype, shape (numbers or SymDim symbols such as s0)
//   inputs   value ids fed per run, in run() argument order
//   params   value ids bound to persistent tensors (parameters, buffers), in binding order
//   updates  mutable persistables: after a run, parameter `param` holds `value` (batch-norm
//            running statistics). Only parameters listed here are ever written; inputs never are.
//   nodes    in topological order: op (a registry op name, or HOST_CALL), inputs (value ids;
//            null for an absent optional input), outputs (value ids), attrs (by attribute name)
//   outputs  value ids returned by run(), in order
//
// Example (x + b with a symbolic batch):
//   { values: [{id: 0, dtype: 'float32', shape: [sym('s0'), 4]}, {id: 1, dtype: 'float32', shape: [4]},
//              {id: 2, dtype: 'float32', shape: [sym('s0'), 4]}],
//     inputs: [0], params: [1], nodes: [{op: 'add', inputs: [0, 1], outputs: [2], attrs: {}}], outputs: [2] }
import { getOp, hasOp } from '../ops/registry.js';
import { resolveAttrs } from '../ops/dispatch.js';
import type { Attrs, TensorMeta } from '../ops/types.js';
import type { DType } from '../tensor/dtype.js';
import { type Shape, shapeStr } from '../tensor/shape.js';
import { constraintStr, type ShapeConstraint, symbolsOf } from '../tensor/sym_expr.js';

/** The op of a host-call node: attrs `{ callee }` names a function given to compile() in `hostFns`. */
export const HOST_CALL = 'skiff.host_call';

export interface ExecValue { readonly id: number; readonly dtype: DType; readonly shape: Shape }
export interface ExecNode {
  readonly op: string;
  readonly inputs: readonly (number | null)[];
  readonly outputs: readonly number[];
  readonly attrs?: Attrs;
}
export interface ExecUpdate { readonly param: number; readonly value: number }
export interface ExecGraph {
  readonly values: readonly ExecValue[];
  readonly inputs: readonly number[];
  readonly params: readonly number[];
  readonly updates?: readonly ExecUpdate[];
  readonly nodes: readonly ExecNode[];
  readonly outputs: readonly number[];
  /** Shape constraints between symbols (product(lhs) == product(rhs)), checked when a run binds them. */
  readonly constraints?: readonly ShapeConstraint[];
}

/** Where a value comes from. */
export type Producer =
  | { kind: 'input'; index: number }
  | { kind: 'param'; index: number }
  | { kind: 'node'; node: number; output: number };

/** Lookups derived once per graph by checkGraph. */
export interface GraphInfo {
  readonly graph: ExecGraph;
  readonly value: ReadonlyMap<number, ExecValue>;
  readonly producer: ReadonlyMap<number, Producer>;
  /** param value id -> the value it takes after a run */
  readonly updateOf: ReadonlyMap<number, number>;
}

export const valueName = (id: number): string => `%${id}`;
export const nodeName = (g: ExecGraph, k: number): string => `node ${k} (${g.nodes[k].op})`;

/**
 * Checks structure: unique value ids, every value defined once (input, param or node output),
 * nodes in topological order, known ops, host calls naming a callee, valid updates.
 */
export function checkGraph(g: ExecGraph): GraphInfo {
  const value = new Map<number, ExecValue>();
  for (const v of g.values) {
    if (!Number.isInteger(v.id)) throw new Error(`ExecGraph: value id ${String(v.id)} is not an integer`);
    if (value.has(v.id)) throw new Error(`ExecGraph: value ${valueName(v.id)} is declared twice`);
    value.set(v.id, v);
  }
  const need = (id: number, what: string): ExecValue => {
    const v = value.get(id);
    if (!v) throw new Error(`ExecGraph: ${what} refers to undeclared value ${valueName(id)}`);
    return v;
  };
  const producer = new Map<number, Producer>();
  const define = (id: number, p: Producer, what: string): void => {
    need(id, what);
    if (producer.has(id)) throw new Error(`ExecGraph: ${what} defines ${valueName(id)}, which is already defined`);
    producer.set(id, p);
  };
  g.inputs.forEach((id, i) => define(id, { kind: 'input', index: i }, `input ${i}`));
  g.params.forEach((id, i) => define(id, { kind: 'param', index: i }, `param ${i}`));
  g.nodes.forEach((n, k) => {
    const what = nodeName(g, k);
    if (n.op === HOST_CALL) {
      if (typeof n.attrs?.callee !== 'string') throw new Error(`ExecGraph: ${what} needs a string attribute 'callee'`);
    } else if (!hasOp(n.op)) throw new Error(`ExecGraph: ${what}: unknown op '${n.op}'`);
    n.inputs.forEach((id, i) => {
      if (id === null) return;
      need(id, `${what} input ${i}`);
      if (!producer.has(id)) {
        const later = g.nodes.findIndex((m, j) => j >= k && m.outputs.includes(id));
        throw new Error(`ExecGraph: ${what} input ${i} uses ${valueName(id)} before it is defined` +
          (later >= 0 ? ` (by node ${later}: the nodes are not in topological order)` : ' (nothing defines it)'));
      }
    });
    n.outputs.forEach((id, i) => define(id, { kind: 'node', node: k, output: i }, `${what} output ${i}`));
  });
  g.outputs.forEach((id, i) => { need(id, `output ${i}`); if (!producer.has(id)) throw new Error(`ExecGraph: output ${i} (${valueName(id)}) is never defined`); });
  (g.constraints ?? []).forEach((c, i) => {
    if (!Array.isArray(c?.lhs) || !Array.isArray(c?.rhs)) throw new Error(`ExecGraph: constraint ${i} needs lhs and rhs dim lists`);
    // Parsing every dim here makes a malformed expression fail at compile(), not mid-run.
    for (const d of [...c.lhs, ...c.rhs]) {
      try { symbolsOf(d); } catch (e) { throw new Error(`ExecGraph: constraint ${i}: ${(e as Error).message}`); }
    }
  });
  const updateOf = new Map<number, number>();
  for (const u of g.updates ?? []) {
    if (producer.get(u.param)?.kind !== 'param') throw new Error(`ExecGraph: update target ${valueName(u.param)} is not a param`);
    if (!producer.has(u.value)) throw new Error(`ExecGraph: update of ${valueName(u.param)} takes undefined value ${valueName(u.value)}`);
    if (updateOf.has(u.param)) throw new Error(`ExecGraph: param ${valueName(u.param)} is updated twice`);
    const p = value.get(u.param)!, v = value.get(u.value)!;
    if (p.dtype !== v.dtype || shapeStr(p.shape) !== shapeStr(v.shape))
      throw new Error(`ExecGraph: update of ${valueName(u.param)} (${p.dtype}${shapeStr(p.shape)}) takes ${valueName(u.value)} of ${v.dtype}${shapeStr(v.shape)}`);
    updateOf.set(u.param, u.value);
  }
  return { graph: g, value, producer, updateOf };
}

/** Readable text of a graph, for errors and debugging. */
export function formatGraph(g: ExecGraph): string {
  const info = new Map(g.values.map((v) => [v.id, v]));
  const decl = (id: number): string => { const v = info.get(id); return v ? `${valueName(id)}: ${v.dtype}${shapeStr(v.shape)}` : valueName(id); };
  const updated = new Map((g.updates ?? []).map((u) => [u.param, u.value]));
  const lines = [`graph(${g.inputs.map(decl).join(', ')}) params(${g.params.map((p) => decl(p) + (updated.has(p) ? ` <- ${valueName(updated.get(p)!)}` : '')).join(', ')}) {`];
  for (const n of g.nodes) {
    const attrs = Object.entries(n.attrs ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
    lines.push(`  ${n.outputs.map(valueName).join(', ')} = ${n.op}(${n.inputs.map((i) => (i === null ? 'None' : valueName(i))).join(', ')})${attrs ? ` {${attrs}}` : ''}`);
  }
  for (const c of g.constraints ?? []) lines.push(`  constraint ${constraintStr(c)}`);
  lines.push(`  return ${g.outputs.map(valueName).join(', ')}`, '}');
  return lines.join('\n');
}

/**
 * Builds an ExecGraph op by op; output metas come from each op's infer rule on the declared
 * (possibly symbolic) shapes.
 * @example
 *   const b = new GraphBuilder();
 *   const x = b.input('float32', [sym('s0'), 4]);
 *   const y = b.op1('add', [x, x]);
 *   b.output(y);
 *   const exe = compile(b.build());
 */
export class GraphBuilder {
  private values: ExecValue[] = [];
  private nodes: ExecNode[] = [];
  private ins: number[] = [];
  private ps: number[] = [];
  private outs: number[] = [];
  private ups: ExecUpdate[] = [];

  private value(m: TensorMeta): number {
    const id = this.values.length;
    this.values.push({ id, dtype: m.dtype, shape: [...m.shape] });
    return id;
  }
  meta(id: number): TensorMeta { const v = this.values[id]; if (!v) throw new Error(`GraphBuilder: no value ${valueName(id)}`); return v; }
  input(dtype: DType, shape: Shape): number { const id = this.value({ dtype, shape }); this.ins.push(id); return id; }
  param(dtype: DType, shape: Shape): number { const id = this.value({ dtype, shape }); this.ps.push(id); return id; }

  op(name: string, inputs: readonly (number | null)[], attrs: Readonly<Record<string, unknown>> = {}): number[] {
    const def = getOp(name);
    const resolved = resolveAttrs(def, attrs);
    const metas = inputs.map((i) => (i === null ? null : this.meta(i))) as TensorMeta[];
    const outs = def.infer(metas, resolved).map((m) => this.value(m));
    this.nodes.push({ op: name, inputs: [...inputs], outputs: outs, attrs: resolved });
    return outs;
  }
  op1(name: string, inputs: readonly (number | null)[], attrs: Readonly<Record<string, unknown>> = {}): number { return this.op(name, inputs, attrs)[0]; }

  host(callee: string, inputs: readonly number[], outs: readonly TensorMeta[]): number[] {
    const ids = outs.map((m) => this.value(m));
    this.nodes.push({ op: HOST_CALL, inputs: [...inputs], outputs: ids, attrs: { callee } });
    return ids;
  }
  update(param: number, value: number): void { this.ups.push({ param, value }); }
  output(...ids: number[]): void { this.outs.push(...ids); }

  build(): ExecGraph {
    return { values: [...this.values], inputs: [...this.ins], params: [...this.ps], updates: [...this.ups], nodes: [...this.nodes], outputs: [...this.outs] };
  }
}

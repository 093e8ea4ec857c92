// Shape specialization: given the concrete shapes fed for one run, bind the graph's symbols
// (s0 -> 8), re-run every op's infer rule on concrete metas, and check the results against the
// declared shapes. Mismatches are errors that name the input or node and the dims involved.
import { getOp } from '../ops/registry.js';
import { resolveAttrs } from '../ops/dispatch.js';
import type { Attrs, OpDef, TensorMeta } from '../ops/types.js';
import type { DType } from '../tensor/dtype.js';
import { type Dim, isStatic, type Shape, shapeStr } from '../tensor/shape.js';
import { constraintHolds, constraintStr, evalDim, evalProduct, type ShapeConstraint, symbolsOf } from '../tensor/sym_expr.js';
import { type GraphInfo, HOST_CALL, nodeName, valueName } from './graph.js';

/** A concrete tensor meta; `strides` is null when the tensor is contiguous. */
export interface BoundMeta { readonly dtype: DType; readonly shape: readonly number[]; readonly strides: readonly number[] | null }

export interface Specialized {
  /** Concrete meta of every value. */
  readonly meta: ReadonlyMap<number, { dtype: DType; shape: number[] }>;
  /** Per node: its OpDef (null for host calls) and resolved attributes. */
  readonly defs: readonly (OpDef | null)[];
  readonly attrs: readonly Attrs[];
  /** Symbol bindings, e.g. s0 -> 8. */
  readonly symbols: ReadonlyMap<string, number>;
}

// evalDim moved to src/tensor/sym_expr.ts (the PIR shape analysis uses it too); re-exported here.
export { evalDim };

const isName = (d: Dim): boolean => typeof d !== 'number' && /^[A-Za-z_]\w*$/.test(d.expr);

/** Binds `declared` against `actual`; `where` names the tensor for errors. Returns deferred compound-dim checks. */
function bindShape(declared: Shape, actual: readonly number[], env: Map<string, number>, origin: Map<string, string>, where: string): (() => void)[] {
  const head = `${where} has shape ${shapeStr(actual)}; the graph declares ${shapeStr(declared)}`;
  if (declared.length !== actual.length) throw new Error(`executor: ${head}: rank ${actual.length} != ${declared.length}`);
  const deferred: (() => void)[] = [];
  declared.forEach((d, i) => {
    const a = actual[i];
    if (typeof d === 'number') {
      if (d !== a) throw new Error(`executor: ${head}: dim ${i} must be ${d}`);
    } else if (isName(d)) {
      const b = env.get(d.expr);
      if (b === undefined) { env.set(d.expr, a); origin.set(d.expr, `${where} dim ${i}`); }
      else if (b !== a) throw new Error(`executor: ${head}: dim ${i} is ${d.expr}, already bound to ${b} by ${origin.get(d.expr)}`);
    } else {
      deferred.push(() => {
        const v = evalDim(d, env);
        // A compound dim over a symbol nothing binds (e.g. data-dependent) cannot be checked; infer decides.
        if (v !== undefined && v !== a) throw new Error(`executor: ${head}: dim ${i} is ${d.expr} = ${v}`);
      });
    }
  });
  return deferred;
}

function checkConstraint(c: ShapeConstraint, env: ReadonlyMap<string, number>, origin: ReadonlyMap<string, string>): void {
  if (constraintHolds(c, env) !== false) return;
  const sideStr = (ds: readonly Dim[]): string => ds.map(String).join('*') || '1';
  const syms = [...new Set([...c.lhs, ...c.rhs].flatMap(symbolsOf))];
  const bound = syms.map((n) => `${n} = ${env.get(n)} (from ${origin.get(n) ?? 'a value'})`).join(', ');
  throw new Error(`executor: shape constraint ${constraintStr(c)} does not hold: ${sideStr(c.lhs)} = ${evalProduct(c.lhs, env)}, ` +
    `${sideStr(c.rhs)} = ${evalProduct(c.rhs, env)}; ${bound}`);
}

/** Concrete metas for one run; throws naming the input/node on any mismatch. */
export function specialize(info: GraphInfo, inputs: readonly BoundMeta[], params: readonly BoundMeta[]): Specialized {
  const g = info.graph;
  if (inputs.length !== g.inputs.length) throw new Error(`executor: the graph takes ${g.inputs.length} inputs, got ${inputs.length}`);
  if (params.length !== g.params.length) throw new Error(`executor: the graph binds ${g.params.length} params, got ${params.length}`);
  const env = new Map<string, number>(), origin = new Map<string, string>();
  const meta = new Map<number, { dtype: DType; shape: number[] }>();
  const deferred: (() => void)[] = [];
  const bindAll = (ids: readonly number[], metas: readonly BoundMeta[], kind: string): void => {
    ids.forEach((id, i) => {
      const decl = info.value.get(id)!, m = metas[i];
      const where = `${kind} ${i} (${valueName(id)})`;
      if (m.dtype !== decl.dtype) throw new Error(`executor: ${where} has dtype ${m.dtype}; the graph declares ${decl.dtype}`);
      deferred.push(...bindShape(decl.shape, m.shape, env, origin, where));
      meta.set(id, { dtype: m.dtype, shape: [...m.shape] });
    });
  };
  bindAll(g.inputs, inputs, 'input');
  bindAll(g.params, params, 'param');
  // The program's shape constraints, before anything is inferred or lowered: a violation names
  // the constraint, each side's value and where every symbol was bound.
  for (const c of g.constraints ?? []) checkConstraint(c, env, origin);
  for (const check of deferred) check();

  const defs: (OpDef | null)[] = [], attrs: Attrs[] = [];
  g.nodes.forEach((n, k) => {
    const what = nodeName(g, k);
    const ins = n.inputs.map((id) => (id === null ? null : meta.get(id)!)) as TensorMeta[];
    let outs: TensorMeta[];
    if (n.op === HOST_CALL) {
      defs.push(null);
      attrs.push(n.attrs ?? {});
      outs = n.outputs.map((id, i) => {
        const decl = info.value.get(id)!;
        const shape = decl.shape.map((d, j) => {
          const v = evalDim(d, env);
          if (v === undefined) throw new Error(`executor: ${what} output ${i} (${valueName(id)}) dim ${j} (${String(d)}) is not determined by the inputs`);
          return v;
        });
        return { dtype: decl.dtype, shape };
      });
    } else {
      const def = getOp(n.op);
      // Buffers are planned from shapes known before running; these ops only know theirs after.
      if (def.dynamicShape) throw new Error(`executor: ${what}: ${def.name} has a data-dependent output shape and cannot run in a compiled program; run it eagerly`);
      const a = resolveAttrs(def, n.attrs ?? {});
      defs.push(def);
      attrs.push(a);
      try {
        outs = def.infer(ins, a);
      } catch (e) {
        const shapes = ins.map((m) => (m ? `${m.dtype}${shapeStr(m.shape)}` : 'None')).join(', ');
        throw new Error(`executor: ${what} on ${shapes}: ${(e as Error).message}`);
      }
      if (outs.length !== n.outputs.length) throw new Error(`executor: ${what} produces ${outs.length} outputs, the graph lists ${n.outputs.length}`);
    }
    n.outputs.forEach((id, i) => {
      const decl = info.value.get(id)!, m = outs[i];
      const where = `${what} output ${i} (${valueName(id)})`;
      if (!isStatic(m.shape)) throw new Error(`executor: ${where} has non-concrete shape ${shapeStr(m.shape)} after specialization`);
      if (m.dtype !== decl.dtype) throw new Error(`executor: ${where} is ${m.dtype} by inference; the graph declares ${decl.dtype}`);
      for (const check of bindShape(decl.shape, m.shape, env, origin, where)) check();
      meta.set(id, { dtype: m.dtype, shape: [...m.shape] });
    });
  });
  return { meta, defs, attrs, symbols: env };
}

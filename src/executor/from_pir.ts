// PIR -> ExecGraph. A program's top-level block maps one to one: pd_op.data are the inputs,
// builtin.parameter the params (by name), builtin.constant become params bound to tensors made
// here, builtin.set_parameter the updates, builtin.host_call host nodes, pd_op.fetch the outputs
// (by column); every other pd_op is a node with its registry attributes and flattened inputs
// (variadic lists from builtin.combine inline; list outputs unpacked through builtin.split).
// Unknown (-1) dims become fresh symbols, bound at run time like any other. shape.tie_product_equal
// ops become the graph's constraints, checked when a run binds the symbols (specialize.ts).
import { native } from '../native.js';
import type { Attrs } from '../ops/types.js';
import { DTYPE_CODE, type DType } from '../tensor/dtype.js';
import { encodeValues } from '../tensor/creation.js';
import { type Dim, sym } from '../tensor/shape.js';
import { Tensor } from '../tensor/tensor.js';
import type { Operation, Program, Value } from '../pir/index.js';
import { flatInputs, hasListOutput, pdAttrs, PYLAYER_OP, TIE_PRODUCT_EQUAL } from '../pir/index.js';
import type { ShapeConstraint } from '../tensor/sym_expr.js';
import { type ExecGraph, type ExecNode, type ExecUpdate, type ExecValue, HOST_CALL } from './graph.js';
import { lowerRegionOp } from './region_hook.js';
import type { HostFn } from './types.js';

export interface PirExecGraph {
  readonly graph: ExecGraph;
  /** pd_op.data names, in graph.inputs order */
  readonly feeds: string[];
  /** builtin.parameter names, in graph.params order; the constants' params follow them */
  readonly params: string[];
  /** tensors of builtin.constant values, bound after the named params (the caller disposes them) */
  readonly constants: Tensor[];
  /** pd_op.fetch names, in graph.outputs order */
  readonly fetches: string[];
  /** Host functions of ops with regions (control flow), to pass to compile's hostFns. */
  readonly hostFns: Record<string, HostFn>;
}

/**
 * Translates a PIR program for compile().
 * @example
 *   const { graph, params, constants } = fromPir(program);
 *   const exe = compile(graph, { params: [...params.map((n) => scope[n]), ...constants] });
 */
export function fromPir(program: Program): PirExecGraph {
  const values: ExecValue[] = [];
  const ids = new Map<Value, number>();
  const vectors = new Map<Value, number[]>();
  let unknown = 0;
  const lift = (shape: readonly Dim[]): Dim[] => shape.map((d) => (d === -1 || (typeof d !== 'number' && !/^[A-Za-z_]\w*$|^[\w+\-*/() ]+$/.test(d.expr)) ? sym(`_u${unknown++}`) : d));
  const fresh = (dtype: DType, shape: readonly Dim[]): number => { values.push({ id: values.length, dtype, shape: lift(shape) }); return values.length - 1; };
  const define = (v: Value): number => {
    const t = v.type;
    if (t.kind === 'vector') {
      const els = t.elements.map((e) => {
        if (e.kind !== 'tensor') throw new Error(`fromPir: list element of type ${String(e)} is not a tensor`);
        return fresh(e.dtype, e.shape);
      });
      vectors.set(v, els);
      return -1;
    }
    if (t.kind !== 'tensor') throw new Error(`fromPir: value of type ${String(t)} is not a tensor`);
    const id = fresh(t.dtype, t.shape);
    ids.set(v, id);
    return id;
  };
  const use = (v: Value | null, op: Operation): number | null => {
    if (v === null) return null;
    const id = ids.get(v);
    if (id === undefined) throw new Error(`fromPir: "${op.name}" uses a value defined outside the top-level block or not a tensor`);
    return id;
  };

  const inputs: number[] = [], feeds: string[] = [];
  const params: number[] = [], paramNames: string[] = [], byName = new Map<string, number>();
  const constantIds: number[] = [], constants: Tensor[] = [];
  const nodes: ExecNode[] = [], updates: ExecUpdate[] = [];
  const constraints: ShapeConstraint[] = [];
  const fetched: { col: number; name: string; id: number }[] = [];
  const str = (op: Operation, name: string): string => {
    const a = op.attr(name);
    if (a?.kind !== 'str') throw new Error(`fromPir: "${op.name}" needs a string attribute '${name}'`);
    return a.value;
  };

  const hostFns: Record<string, HostFn> = {};
  for (const op of program.block.ops) {
    if (op.regions.length) {
      // Control flow runs its regions from a host call (src/executor/control_flow.ts).
      const low = lowerRegionOp(op);
      if (!low) throw new Error(`fromPir: "${op.name}" has regions and no lowering; the executor runs only pd_op.if and pd_op.while`);
      const callee = `${op.name}#${nodes.length}`;
      hostFns[callee] = low.fn;
      nodes.push({ op: HOST_CALL, inputs: low.inputs.map((v) => use(v, op)), outputs: op.results.map((r) => define(r)), attrs: { callee } });
      continue;
    }
    switch (op.name) {
      case 'pd_op.data':
        inputs.push(define(op.result(0)));
        feeds.push(str(op, 'name'));
        break;
      case 'builtin.parameter': {
        const name = str(op, 'parameter_name');
        const known = byName.get(name);
        if (known !== undefined) { ids.set(op.result(0), known); break; }
        const id = define(op.result(0));
        byName.set(name, id);
        params.push(id);
        paramNames.push(name);
        break;
      }
      case 'builtin.constant': {
        constantIds.push(define(op.result(0)));
        constants.push(constantTensor(op));
        break;
      }
      case 'builtin.set_parameter': {
        const name = str(op, 'parameter_name');
        const v = use(op.operand(0), op)!;
        let p = byName.get(name);
        if (p === undefined) {
          p = fresh(values[v].dtype, values[v].shape);
          byName.set(name, p);
          params.push(p);
          paramNames.push(name);
        }
        updates.push({ param: p, value: v });
        break;
      }
      case 'builtin.combine': break;  // read through flatInputs by the consumer
      case TIE_PRODUCT_EQUAL: {
        const [l, r] = [op.attr('lhs'), op.attr('rhs')];
        if (l?.kind !== 'shape' || r?.kind !== 'shape') throw new Error(`fromPir: "${op.name}" needs shape attributes 'lhs' and 'rhs'`);
        constraints.push({ lhs: l.value, rhs: r.value });
        break;
      }
      case 'builtin.split': {
        const els = vectors.get(op.operand(0)!);
        if (!els) throw new Error('fromPir: builtin.split of a value that is not a list output');
        op.results.forEach((r, i) => ids.set(r, els[i]));
        break;
      }
      case 'builtin.host_call':
        nodes.push({
          op: HOST_CALL, inputs: op.operandValues().map((v) => use(v, op)),
          outputs: op.results.map((r) => define(r)), attrs: { callee: str(op, 'callee') },
        });
        break;
      case PYLAYER_OP:
        // Forward of a captured PyLayer: its results are forward's outputs (operands 0..n-1);
        // only its gradient does something (a host call in the backward program).
        op.results.forEach((r, k) => ids.set(r, use(op.operand(k), op)!));
        break;
      case 'pd_op.fetch': {
        const col = op.attr('col');
        fetched.push({ col: col?.kind === 'int' ? col.value : fetched.length, name: str(op, 'name'), id: use(op.operand(0), op)! });
        break;
      }
      default: {
        const def = op.def;
        if (!def) throw new Error(`fromPir: "${op.name}" is not an op the executor runs`);
        const outs = hasListOutput(def) ? (define(op.result(0)), vectors.get(op.result(0))!) : op.results.map((r) => define(r));
        // An inplace pd_op (add_) is the functional op here: the captured program is functionalized.
        nodes.push({ op: def.name, inputs: flatInputs(op).map((v) => use(v, op)), outputs: outs, attrs: pdAttrs(op) as Attrs });
      }
    }
  }
  fetched.sort((a, b) => a.col - b.col);
  return {
    graph: { values, inputs, params: [...params, ...constantIds], updates, nodes, outputs: fetched.map((f) => f.id), ...(constraints.length ? { constraints } : {}) },
    feeds, params: paramNames, constants, fetches: fetched.map((f) => f.name), hostFns,
  };
}

function constantTensor(op: Operation): Tensor {
  const t = op.result(0).type;
  if (t.kind !== 'tensor' || !t.isStatic) throw new Error(`fromPir: builtin.constant needs a static tensor type, got ${String(t)}`);
  const shape = t.shape as number[];
  const n = shape.reduce((a, b) => a * b, 1);
  const a = op.attr('value');
  let data: number[];
  if (a?.kind === 'int' || a?.kind === 'float') data = new Array<number>(n).fill(a.value);
  else if (a?.kind === 'bool') data = new Array<number>(n).fill(a.value ? 1 : 0);
  else if (a?.kind === 'ints' || a?.kind === 'floats') data = [...a.value];
  else throw new Error(`fromPir: builtin.constant has no usable 'value' attribute`);
  return new Tensor(native.fromBytes(DTYPE_CODE[t.dtype], shape, encodeValues(data, t.dtype)), t.dtype, [...shape]);
}

// Inplace ops (x.add_(y), paddle.relu_(x)) and tensor item assignment (x[i] = v) inside
// translated code, functionalized: the op is recorded in its functional form, the tensor's
// variable is rebound to the result (every reference to that Python object sees it), and a
// tensor that came from the entry is written back after the graph runs (an in-place copy into
// its storage, so views and bases outside the function see the write as after the eager op).
//
// Only where this is exactly eager's behaviour; otherwise the write runs concretely (a break):
// a tensor that wants gradients (the tape must see the real inplace op), a view made in this
// graph or a tensor viewed in it (the views would not follow the write), an entry tensor that
// is not reachable from the slots, and, guarded per call, an entry tensor sharing storage with
// any other entry tensor or bound constant.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { checkSoleStorage, checkUnaliasedWritten } from '../../../sot/guards.js';
import { isLocalSource } from '../../../sot/sources.js';
import { ConstVar, ObjectVar, SliceVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { type IndexItem, indexPlan } from '../../../src/ops/setitem.js';
import { getOp } from '../../../src/ops/registry.js';
import type { Translator } from './translator.js';
import { callApi, recordOp } from './semantics.js';

const concrete = (why: string): GraphBreak => new GraphBreak('SOT007', `inplace write: ${why}`);

/** Throws a break unless writing t in place can be modelled functionally. */
function checkWritable(tx: Translator, t: TensorVar): void {
  if (!t.sym.stop_gradient) throw concrete('the tensor wants gradients');
  const id = t.sym.id;
  if (tx.graph.nodes.some((n) => n.def.view && (n.outputs.includes(id) || n.inputs.includes(id)))) throw concrete('a view of the tensor, or the tensor a view, is in the graph');
  if (t.source && !isLocalSource(t.source)) throw concrete(`the tensor comes from ${t.source.key}`);
  // this call's entry must already satisfy the guard the node will carry
  if (t.source && !checkSoleStorage({ kind: 'sole_storage', source: t.source, fixed: tx.boundConstants() }, tx.entry))
    throw concrete(`${t.source.key} shares its storage with another tensor of the call`);
  if (!t.source) {
    // A bound tensor (a layer buffer) is written back after the graph, guarded against entry aliases.
    const c = tx.boundTensorOf(t);
    if (c !== null && !checkUnaliasedWritten([tx.constTensorAt(c)], tx.entry)) throw concrete('a bound tensor that an argument aliases');
    if (c !== null && tx.madeConsts.has(c)) throw concrete('a tensor to_tensor made in translated code');
  }
}

/** Rebinds t to `result` (same dtype and shape) and schedules the write-back of an entry tensor. */
function rebind(tx: Translator, t: TensorVar, result: Variable, what: string): TensorVar {
  if (!(result instanceof TensorVar)) throw concrete(`${what} gave no tensor`);
  const a = t.sym, b = result.sym;
  if (a.dtype !== b.dtype || a.shape.length !== b.shape.length || a.shape.some((d, i) => d !== b.shape[i]))
    throw concrete(`${what} changes dtype or shape`);   // eager raises, or rebinds x (reshape_, equal_)
  tx.rebindTensor(t, result);
  return t;
}

/**
 * x.op_(...) / paddle.op_(...): the registry op `opName` on `args`, written into the input it
 * writes (OpDef.inplaceInput: where_(condition, x, y) writes x).
 */
export function functionalizeInplace(tx: Translator, opName: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  const at = getOp(opName).inplaceInput ?? 0;
  const t = args[at];
  if (!(t instanceof TensorVar)) throw concrete(`${opName}_() on a non-tensor`);
  checkWritable(tx, t);
  return rebind(tx, t, callApi(tx, opName, args, kwargs), `${opName}_`);
}

const isEllipsis = (v: Variable): boolean => v instanceof ObjectVar && v.ref.typeName === 'ellipsis';

function constInt(v: Variable, what: string): number | null {
  if (v instanceof ConstVar && v.value.k === 'none') return null;
  if (v instanceof ConstVar && (v.value.k === 'int' || v.value.k === 'bool')) return Number(v.value.v);
  throw concrete(`${what} is not a constant int`);
}

/** The index as src/ops/setitem.ts items (ints, slices, None, Ellipsis); anything else breaks. */
function indexItems(index: Variable): IndexItem[] {
  const items = index instanceof TupleVar ? index.items : [index];
  return items.map((it): IndexItem => {
    if (isEllipsis(it)) return '...';
    if (it instanceof ConstVar && it.value.k === 'none') return null;
    if (it instanceof SliceVar) return { start: constInt(it.start, 'slice start'), stop: constInt(it.stop, 'slice stop'), step: constInt(it.step, 'slice step') };
    if (it instanceof ConstVar && it.value.k === 'int') return Number(it.value.v);
    throw concrete(`index of kind ${it.kind}`);
  });
}

/** x[index] = value, as set_value_with_tensor (Python's setitem casts value to x's dtype). */
export function functionalizeSetItem(tx: Translator, t: TensorVar, index: Variable, value: Variable): void {
  checkWritable(tx, t);
  const shape = t.sym.shape.map((d) => { if (typeof d !== 'number') throw concrete('symbolic shape'); return d; });
  let plan;
  try { plan = indexPlan(shape, indexItems(index)); } catch (e) { throw concrete(`index: ${(e as Error).message}`); }
  let v: Variable;
  if (value instanceof TensorVar) {
    v = value.sym.dtype === t.sym.dtype ? value : callApi(tx, 'cast', [value, new ConstVar({ k: 'str', v: t.sym.dtype })], []);
  } else if (value instanceof ConstVar && (value.value.k === 'int' || value.value.k === 'float' || value.value.k === 'bool')) {
    v = new TensorVar(recordOp(tx, 'full', [], { shape: [], fill_value: Number(value.value.v), dtype: t.sym.dtype })[0] as never);
  } else throw concrete(`value of kind ${value.kind}`);
  const out = recordOp(tx, 'set_value_with_tensor', [t.sym, (v as TensorVar).sym], { ...plan });
  rebind(tx, t, new TensorVar(out[0] as never), 'item assignment');
}

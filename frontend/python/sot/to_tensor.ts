// paddle.to_tensor(constant data) in translated code. Paddle records it as a constant-valued op;
// Skiff makes the tensor once, at translation time, with Python's own to_tensor (its data is
// a constant of the code or guarded where it came from), and binds it into the graph as a
// constant. Eager makes a new tensor per call, so the constant itself never reaches the user:
// wherever the value leaves the graph (a return, a step operand, a side effect) a copy made in
// that run stands for it (segment.ts, SKIFF_NEW 'clone'), and writing it in place breaks
// (inplace.ts). Anything else about the call (a tensor or object as data, place, stop_gradient=
// False, a float without an explicit dtype: the default dtype is global state) is inlined as before.
import { HostError } from '../../../sot/host.js';
import type { RtValue } from '../../../sot/values.js';
import { ConstVar, ListVar, ObjectVar, TupleVar, type Variable } from '../../../sot/variables.js';
import type { Translator } from './translator.js';
import { isPureObject, toRt } from './semantics.js';
import { arrayAsTensor, isNumpyArray } from './numpy_values.js';

/** Paddle dtype names to_tensor takes as strings (an alias such as 'float' depends on global state: inlined as before). */
const DTYPES = new Set(['bool', 'int8', 'uint8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']);

const PARAMS = ['data', 'dtype', 'place', 'stop_gradient'];

/** Constant data: numbers, bools and nested lists/tuples of them; `floats` is set when a float occurs. */
function constantData(v: Variable, seen: { floats: boolean }): boolean {
  if (v instanceof ConstVar) {
    if (v.value.k === 'float') seen.floats = true;
    return v.value.k === 'int' || v.value.k === 'float' || v.value.k === 'bool';
  }
  if (v instanceof TupleVar || v instanceof ListVar) return v.items.every((x) => constantData(x, seen));
  return false;
}

/** The new constant tensor, or null when the call is not a constant to_tensor (inlined as before). */
export function toTensorCall(tx: Translator, fn: ObjectVar, args: Variable[], kwargs: [string, Variable][]): Variable | null {
  if (fn.info.kind !== 'function' || fn.info.name !== 'to_tensor') return null;
  if (tx.host.compatFunction('paddle.creation', 'to_tensor').id !== fn.ref.id) return null;
  if (args.length > PARAMS.length) return null;
  const bound = new Map<string, Variable>();
  args.forEach((a, i) => bound.set(PARAMS[i], a));
  for (const [k, v] of kwargs) {
    if (!PARAMS.includes(k) || bound.has(k)) return null;
    bound.set(k, v);
  }
  const data = bound.get('data'), dtype = bound.get('dtype'), place = bound.get('place'), sg = bound.get('stop_gradient');
  const isNone = (v: Variable | undefined) => v === undefined || (v instanceof ConstVar && v.value.k === 'none');
  if (!isNone(place)) return null;
  if (sg !== undefined && !(sg instanceof ConstVar && sg.value.k === 'bool' && sg.value.v)) return null;
  if (data && isNumpyArray(data)) {
    // an entry ndarray: its storage is a graph input, copied (or cast) as eager's to_tensor does
    let name: string | null = null;
    if (dtype instanceof ConstVar && dtype.value.k === 'str') name = dtype.value.v;
    else if (dtype && isPureObject(dtype)) name = tx.host.dtypeName((dtype as ObjectVar).ref);
    else if (!isNone(dtype)) return null;
    if (name !== null && !DTYPES.has(name)) return null;
    return arrayAsTensor(tx, data, name);
  }
  const seen = { floats: false };
  if (!data || !constantData(data, seen)) return null;
  if (isNone(dtype) ? seen.floats : !((dtype instanceof ConstVar && dtype.value.k === 'str') || isPureObject(dtype!))) return null;
  const operands = [data, dtype ?? new ConstVar({ k: 'none' })].map((v) => toRt(tx, v));
  if (!operands.every(Boolean)) return null;
  const nul: RtValue = { k: 'obj', ref: tx.host.nullRef };
  const f: RtValue = { k: 'obj', ref: fn.ref };
  let r: RtValue;
  try {
    r = tx.host.concrete({ opname: 'CALL', arg: 2 }, tx.v.callableFirst ? [f, nul, ...(operands as RtValue[])] : [nul, f, ...(operands as RtValue[])])[1];
  } catch (e) {
    if (e instanceof HostError) return null;   // (inlined, the call raises there as eager does)
    throw e;
  }
  if (r.k !== 'tensor' || !keepForTree(tx, r)) return null;
  return tx.madeConstTensor(r.t);
}

/**
 * A tensor a concrete call made at translation time, bound into the graph as a constant: Python
 * owns it (its handle is released when the last Python reference goes, and that disposes it),
 * so a list holding it, pinned for the tree's lifetime, keeps it alive while the graph binds it.
 * False when the holder could not be made (the caller then does not bind it).
 */
export function keepForTree(tx: Translator, r: Extract<RtValue, { k: 'tensor' }>): boolean {
  const holder = tx.host.concrete({ opname: 'SKIFF_NEW', arg: 0, argval: { k: 'str', v: 'list' } }, [{ k: 'tuple', items: [r] }])[1];
  if (holder.k !== 'list' || !holder.ref) return false;
  tx.host.pinForTree(holder.ref);
  return true;
}

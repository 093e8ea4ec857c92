// NumPy values (Skiff's numpy subset, compat/numpy) as a variable kind of the Python translator.
//
// Scalars (np.int64(2), np.float32(1.5), np.bool_): immutable values. An entry scalar is guarded
// by its dtype and value, not its identity (sot/guards.ts 'numpy'), so a fresh scalar object with
// the same value hits the cache, as Paddle's NumpyNumberVariable guard does. Their operators,
// comparisons and truth are computed by the host at translation time (TRAIT_PURE, queries.py).
// With a tensor they are the Python number they hold (the tensor's dtype wins, as in eager
// compat/paddle/tensor.py _numpy_scalar): the op is captured with that constant.
//
// Arrays: an ndarray holds a paddle Tensor (its storage). An entry array is guarded by its numpy
// dtype and shape; its data is never baked into a graph: the storage tensor is a graph input read
// on every run (source `<slot>["<ndarray data>"]`, sot/guards.ts resolveLocal), so a changed
// array content needs no re-translation and no content guard, whatever its size. Captured:
// `paddle.to_tensor(arr)` (a copy, dtype kept or cast) and `tensor <op> arr` for the operators
// Tensor defers to the array with (`+ - * / // % ** & | ^` and their `op=` forms: eager converts
// the array with to_tensor, then Paddle's promotion), and `.shape` / `.ndim` / `.size` / `.dtype`
// as constants. Everything else an array does — method calls, numpy functions taking it, other
// attributes, indexing and item writes, operators with it on the left, comparisons — is numpy
// computing, which runs concretely (SOT030). Only entry values
// (slots and their items) get this kind; arrays read from globals or attributes stay objects
// guarded by identity, and arrays made by a concrete step (`t.numpy()`, SOT003) are entry values
// of the node after it.
import { numpyArrayGuard, numpyScalarGuard, NUMPY_DATA } from '../../../sot/guards.js';
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { isLocalSource, itemSource, type Source } from '../../../sot/sources.js';
import type { NumpyInfo, RtValue } from '../../../sot/values.js';
import { BoundMethodVar, ConstVar, ObjectVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import type { Translator } from './translator.js';
import { recordOp, tensorResults } from './semantics.js';

/** Entry numpy variables (guarded by value, not identity) and what the host told about them. */
const valueGuarded = new WeakMap<Variable, NumpyInfo>();

/**
 * The variable for an entry numpy value found at `source`, with its guard; null when `v` is not
 * a numpy value or its source is not local (then it is an object guarded by identity).
 */
export function numpyEntryVar(tx: Translator, v: Extract<RtValue, { k: 'obj' }>, source: Source | null, guard: boolean): ObjectVar | null {
  const np = v.np;
  if (!np || !source || !isLocalSource(source)) return null;
  if (guard) {
    if (np.kind === 'scalar') tx.guards.add(numpyScalarGuard(source, np.dtype, np.value));
    else tx.guards.add(numpyArrayGuard(source, np.dtype, np.t.shape));
  }
  const o = tx.objectVar(v.ref, source);
  valueGuarded.set(o, np);
  return o;
}

/** Whether `is` between these two variables cannot be answered (a value-guarded numpy value is any object of that value). */
export const identityUnknown = (a: Variable, b: Variable): boolean => a !== b && (valueGuarded.has(a) || valueGuarded.has(b));

/** An ndarray entry variable's info, or null. */
function arrayInfo(v: Variable): Extract<NumpyInfo, { kind: 'array' }> | null {
  const np = valueGuarded.get(v);
  return np?.kind === 'array' ? np : null;
}

export const isNumpyArray = (v: Variable): boolean => arrayInfo(v) !== null;

/**
 * `paddle.to_tensor(arr)`: the array's storage as a graph input (guarded dtype/shape/stop_gradient
 * by its source), cast when a dtype is asked. The variable has no source of its own, so an
 * inplace write to it is functional (never written back into the array), and where it leaves the
 * graph unchanged a copy made in that run stands for it (segment.ts): eager copies.
 */
export function arrayAsTensor(tx: Translator, v: Variable, dtype: string | null = null): TensorVar | null {
  const np = arrayInfo(v);
  if (!np || !v.source) return null;
  const data = tx.fromRt({ k: 'tensor', t: np.t }, itemSource(v.source, NUMPY_DATA), true);
  if (!(data instanceof TensorVar)) return null;
  if (dtype === null || dtype === data.sym.dtype) return new TensorVar(data.sym, null);
  return tensorResults(recordOp(tx, 'cast', [data.sym], { dtype })) as TensorVar;
}

/** True for an item source naming an ndarray's data tensor. */
export const isNumpyDataSource = (s: Source): boolean =>
  s.k === 'item' && s.index.k === 'str' && s.index.v === (NUMPY_DATA as { v: string }).v;

/** Tensor operators that hand an ndarray right operand to `to_tensor` (compat/numpy/_ufuncs.py _op with a dunder). */
const DEFERRED_OPS = new Set(['+', '-', '*', '/', '//', '%', '**', '&', '|', '^']);

/**
 * `tensor <op> arr` as eager runs it: Tensor declines, ndarray's reflected operator answers
 * `tensor <op> to_tensor(arr)`. Returns the operands to use, or null when neither is an array.
 * An array on the left (numpy computes) or an operator numpy answers itself breaks (SOT030).
 */
export function arrayOperands(tx: Translator, sym: string, a: Variable, b: Variable): [Variable, Variable] | null {
  const aArr = isNumpyArray(a), bArr = isNumpyArray(b);
  if (!aArr && !bArr) return null;
  // Tensor has no inplace dunders: `t += arr` is `t = t + arr`
  const base = sym.length > 1 && sym.endsWith('=') && !['==', '!=', '<=', '>='].includes(sym) ? sym.slice(0, -1) : sym;
  if (aArr || !(a instanceof TensorVar) || !DEFERRED_OPS.has(base)) throw new GraphBreak('SOT030', `operator ${sym} with a numpy array computes with numpy`);
  const t = arrayAsTensor(tx, b);
  if (!t) throw new GraphBreak('SOT030', `operator ${sym} with a numpy array`);
  return [a, t];
}

/** Data attributes of an ndarray read as constants; anything else on it is numpy computing. */
export function numpyAttr(tx: Translator, obj: ObjectVar, name: string): Variable | null {
  const np = valueGuarded.get(obj);
  if (!np) return null;
  if (np.kind === 'scalar') return null;   // read from the object (immutable, value-guarded)
  const shape = np.t.shape;
  switch (name) {
    case 'shape': return new TupleVar(shape.map((d) => new ConstVar({ k: 'int', v: d })));
    case 'ndim': return new ConstVar({ k: 'int', v: shape.length });
    case 'size': return new ConstVar({ k: 'int', v: shape.reduce((n, d) => n * d, 1) });
    case 'dtype': {
      // numpy dtype objects are one per dtype (compat/numpy/_dtypes.py): the guard fixes which
      const d = tx.host.getattrWithId({ k: 'obj', ref: obj.ref }, 'dtype').value;
      return d.k === 'obj' ? tx.objectVar(d.ref, null) : null;
    }
    default: {
      // A method stays a lazy `arr.name` (its call breaks with the whole call, run once per
      // call: a bound method made by a step would be a new object, guarded anew, every call).
      let m: RtValue | null = null;
      try {
        m = tx.host.getattrWithId({ k: 'obj', ref: obj.ref }, name).value;
      } catch (e) {
        if (!(e instanceof HostError)) throw e;
      }
      if (m?.k === 'obj' && tx.host.describe(m.ref).kind === 'method') return new BoundMethodVar(obj, name);
      throw new GraphBreak('SOT030', `ndarray.${name}`);
    }
  }
}

/** Whether an attribute read of this object must skip the wrapper's attribute guard (value-guarded scalars). */
export const attrUnguarded = (obj: ObjectVar): boolean => valueGuarded.get(obj)?.kind === 'scalar';

/** An ndarray, entry or not (one made by numpy's own code, or read from an attribute). */
const anyArray = (v: Variable): boolean =>
  isNumpyArray(v) || (v instanceof ObjectVar && v.info.kind === 'other' && v.ref.typeName === 'ndarray');

/**
 * A call of a numpy function with an ndarray argument (np.add(arr, 1), ...), or of an ndarray's
 * bound method: numpy computing, which runs concretely (SOT030) instead of simulating the numpy
 * subset's own Python (which would break deep inside it, again on every call).
 */
export function numpyCallBreak(tx: Translator, fn: Variable, args: readonly Variable[], kwargs: readonly [string, Variable][]): void {
  if (fn instanceof BoundMethodVar && isNumpyArray(fn.self)) throw new GraphBreak('SOT030', `ndarray.${fn.name}()`);
  if (!(fn instanceof ObjectVar)) return;
  const self = fn.info.kind === 'method' ? tx.objectVar(fn.info.self, null) : null;
  if (!(self && anyArray(self)) && !args.some(anyArray) && !kwargs.some(([, v]) => anyArray(v))) return;
  let mod: RtValue;
  try {
    mod = tx.host.getattr({ k: 'obj', ref: fn.ref }, '__module__');
  } catch (e) {
    if (e instanceof HostError) return;
    throw e;
  }
  if (mod.k === 'str' && (mod.v === 'numpy' || mod.v.startsWith('numpy.'))) throw new GraphBreak('SOT030', `numpy function ${fn.info.kind === 'function' ? fn.info.name : fn.ref.typeName} on an ndarray`);
}

/** The Python number a numpy scalar object holds, as a constant; null for anything else. */
export function numpyScalarConst(tx: Translator, v: Variable): ConstVar | null {
  if (!(v instanceof ObjectVar) || v.info.kind !== 'other') return null;
  const known = valueGuarded.get(v);
  if (known) return known.kind === 'scalar' ? new ConstVar(known.value) : null;
  const fn = { k: 'obj', ref: tx.host.compatFunction('paddle.tensor', '_numpy_scalar') } as const;
  const nul = { k: 'obj', ref: tx.host.nullRef } as const;
  const obj = { k: 'obj', ref: v.ref } as const;
  let r;
  try {
    r = tx.host.concrete({ opname: 'CALL', arg: 1 }, tx.v.callableFirst ? [fn, nul, obj] : [nul, fn, obj])[1];
  } catch (e) {
    if (e instanceof HostError) return null;
    throw e;
  }
  return r.k === 'bool' || r.k === 'int' || r.k === 'float' ? new ConstVar(r) : null;
}

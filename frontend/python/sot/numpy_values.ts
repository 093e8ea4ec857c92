// NumPy scalars (np.int64(2), np.float32(1.5), np.bool_) meeting tensors. Eager Tensor
// arithmetic takes such a scalar as the Python number it holds (compat/paddle/tensor.py
// _numpy_scalar), so the translator does too: the number is read once from the host object and
// the op is captured with it as a constant, instead of a graph break. Sound without a new
// guard: an object reaching the translator is guarded by identity (a step result, an attribute)
// or by the wrapper's `is` check (a global), and numpy scalars are immutable.
import { ConstVar, ObjectVar, type Variable } from '../../../sot/variables.js';
import { HostError } from '../../../sot/host.js';
import type { Translator } from './translator.js';

/** The Python number a numpy scalar object holds, as a constant; null for anything else. */
export function numpyScalarConst(tx: Translator, v: Variable): ConstVar | null {
  if (!(v instanceof ObjectVar) || v.info.kind !== 'other') return null;
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

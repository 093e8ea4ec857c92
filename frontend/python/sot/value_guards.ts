// Sequence membership (list.remove / index / count, `x in seq`) compares items with
// PyObject_RichCompareBool: identity first, then `==` and its truth. `1 == t` for a tensor t is
// a tensor whose truth is t's value, which tracing cannot know. When t is a one-element tensor
// the call received unchanged (an entry tensor) and the other side is a Python number, the
// translator reads the answer from the real tensor now and guards it (sot/guards.ts
// `tensor_truth`): a call where the answer differs translates anew, so the result is eager's.
import { resolveLocal, tensorTruthGuard } from '../../../sot/guards.js';
import { isLocalSource } from '../../../sot/sources.js';
import { tensorScalarTruth, type TypedScalar } from '../../../sot/tensor_semantics.js';
import { ConstVar, TensorVar, type Variable } from '../../../sot/variables.js';
import { isStatic } from '../../../src/tensor/shape.js';
import type { Translator } from './translator.js';

function typedScalar(v: Variable): TypedScalar | null {
  if (!(v instanceof ConstVar)) return null;
  const c = v.value;
  if (c.k === 'bool') return { scalar: c.v, kind: 'bool' };
  if (c.k === 'float') return { scalar: c.v, kind: 'float' };
  if (c.k === 'int') {
    const n = Number(c.v);
    return Number.isSafeInteger(n) ? { scalar: n, kind: 'int' } : null;
  }
  return null;
}

/**
 * bool(a == b) when one side is an unchanged one-element entry tensor and the other a Python
 * number, read from the real tensor and guarded; null when that does not apply (the caller
 * then compares as before, which breaks on a tensor).
 */
export function entryTensorEquals(tx: Translator, a: Variable, b: Variable): boolean | null {
  const [t, other] = a instanceof TensorVar ? [a, b] : b instanceof TensorVar ? [b, a] : [null, null];
  if (!t || !other || !t.source || !isLocalSource(t.source)) return null;
  const s = typedScalar(other);
  if (!s) return null;
  // Still the value the call received: its symbol is the graph input read from that source.
  const input = tx.graph.inputs.find((x) => x.value === t.sym.id);
  if (!input || input.source.key !== t.source.key) return null;
  if (!isStatic(t.sym.shape) || t.sym.shape.reduce((n, d) => n * (d as number), 1) !== 1) return null;
  const real = resolveLocal(t.source, tx.entry);
  if (!real || real.k !== 'tensor' || real.t.size !== 1) return null;
  // `1 == t` and `t == 1` both run t.__eq__(1) (int.__eq__ gives NotImplemented).
  const truth = tensorScalarTruth(real.t, '==', s);
  tx.guards.add(tensorTruthGuard(t.source, '==', s, truth));
  return truth;
}

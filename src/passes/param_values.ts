// Compile-time values of program operands for passes that need them: builtin.constant data,
// and builtin.parameter data when the caller binds parameters (a scope lookup). Passes never
// write these values: folding creates new constants.
import type { Value } from '../pir/core.js';
import type { Tensor } from '../tensor/tensor.js';
import { constantData } from './constant_fold.js';

/** Parameter values by name (e.g. `(n) => scope[n]`); undefined for an unknown name. */
export type ParamLookup = (name: string) => Tensor | undefined;

/** The parameter name of a builtin.parameter result, or null. */
export function parameterName(v: Value): string | null {
  const d = v.definingOp;
  if (d?.name !== 'builtin.parameter') return null;
  const a = d.attr('parameter_name');
  return a?.kind === 'str' ? a.value : null;
}

/** The flat data of a constant, or of a bound parameter; null when unknown at compile time. */
export function valueData(v: Value, params?: ParamLookup): number[] | null {
  const c = constantData(v);
  if (c) return c;
  const name = parameterName(v);
  const t = name !== null ? params?.(name) : undefined;
  return t ? t.dataSync().map(Number) : null;
}

/** Static shape of a tensor value, or null. */
export function staticShape(v: Value): number[] | null {
  const t = v.type;
  return t.kind === 'tensor' && t.isStatic ? [...(t.shape as number[])] : null;
}
